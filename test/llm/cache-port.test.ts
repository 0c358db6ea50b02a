import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CachePort, promptHash } from '../../src/llm/index.ts';
import { tempDir } from '../support/temp-dir.ts';
import { request, ScriptedPort } from './scripted-port.ts';

let dir: string;
beforeEach(async () => {
  dir = tempDir('cache');
});

describe('CachePort', () => {
  it('stores a reply under the prompt hash and serves it again, across instances', async () => {
    const inner = new ScriptedPort([{ text: 'first', usage: { input: 3, output: 2 }, model: 'm-1' }]);
    const req = request();
    const first = await new CachePort(inner, { dir }).complete(req);
    expect(first.cached).toBeUndefined();
    const again = new CachePort(inner, { dir });
    const hit = await again.complete(request({ caller: 'bob', tick: 9 }));
    expect(hit).toEqual({
      text: 'first',
      usage: { input: 3, output: 2 },
      model: 'm-1',
      attempts: [],
      cached: true,
    });
    expect(again.stats()).toEqual({ hits: 1, misses: 0, writeErrors: 0 });
    expect(inner.requests).toHaveLength(1);
    const key = promptHash(req.params, req.messages);
    const entry = JSON.parse(await readFile(join(dir, key.slice(0, 2), `${key}.json`), 'utf8'));
    expect(entry).toMatchObject({ version: 1, key, reply: { text: 'first' } });
    expect(await readdir(join(dir, key.slice(0, 2)))).toEqual([`${key}.json`]); // no temp files left
  });

  it('misses when params or messages differ', async () => {
    const inner = new ScriptedPort(['a', 'b', 'c']);
    const cache = new CachePort(inner, { dir });
    await cache.complete(request());
    await cache.complete(request({ params: { model: 'test-model', temperature: 0.5, seed: 1 } }));
    await cache.complete(request({ messages: [{ role: 'user', content: 'other' }] }));
    expect(cache.stats()).toEqual({ hits: 0, misses: 3, writeErrors: 0 });
  });

  it('treats a corrupt entry as a miss and overwrites it', async () => {
    const req = request();
    const key = promptHash(req.params, req.messages);
    const inner = new ScriptedPort(['fresh']);
    const cache = new CachePort(inner, { dir });
    await cache.complete(req);
    await writeFile(join(dir, key.slice(0, 2), `${key}.json`), '{"version":1,', 'utf8');
    expect((await cache.complete(req)).text).toBe('fresh');
    expect((await cache.complete(req)).cached).toBe(true);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, writeErrors: 0 });
  });

  it('does not store failures', async () => {
    const inner = new ScriptedPort([new Error('down'), 'ok']);
    const cache = new CachePort(inner, { dir });
    await expect(cache.complete(request())).rejects.toThrow('down');
    expect((await cache.complete(request())).text).toBe('ok');
  });

  it('keeps working when the directory cannot be written', async () => {
    const file = join(dir, 'not-a-dir');
    await writeFile(file, 'x');
    const cache = new CachePort(new ScriptedPort(['ok']), { dir: file });
    expect((await cache.complete(request())).text).toBe('ok');
    expect(cache.stats().writeErrors).toBe(1);
  });
});
