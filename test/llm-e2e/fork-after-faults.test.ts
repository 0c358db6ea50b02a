// Issue 15 item 14: a fork without intervention of a parent whose LLM calls met faults
// (retried attempts are in its llm lines' wall) reaches the parent's digest, because it
// replays the parent's later calls instead of asking the model again (ParentTailPort).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { parsed } from '../fork/helpers.ts';
import { cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('fork-faults');
const parent = join(dir, 'parent.ndjson');
let faulty: LocalLlmServer;
let clean: LocalLlmServer;
let parentDigest = '';

beforeAll(async () => {
  faulty = await startLocalLlmServer({ port: 0, faultRate: 0.3, faultKinds: ['500'], seed: 3 });
  clean = await startLocalLlmServer({ port: 0 });
  const r = await cliJson([
    'run',
    'town-square',
    '--llm-base-url',
    faulty.url,
    '--seed',
    '2',
    '--ticks',
    '6',
    '--out',
    parent,
  ]);
  parentDigest = r.digest as string;
});

afterAll(async () => {
  await faulty?.close();
  await clean?.close();
});

describe('a fork without intervention of a parent that met LLM faults', () => {
  it('has failed attempts in the parent after the fork tick (the case under test)', () => {
    const retried = parsed(parent).filter(
      (l) => l.type === 'llm' && l.t > 3 && ((l.wall as { attempts?: unknown[] }).attempts ?? []).length > 0,
    );
    expect(retried.length).toBeGreaterThan(0);
  });

  it('reaches the parent digest against a fault-free server, asking it nothing', async () => {
    const out = join(dir, 'child.ndjson');
    const r = await cliJson(['fork', parent, '--at', '3', '--llm-base-url', clean.url, '--out', out]);
    expect(r.digest).toBe(parentDigest);
    expect(clean.stats().completions).toBe(0);
  });

  it('a fork with an intervention still asks the model after the fork tick', async () => {
    const out = join(dir, 'reseeded.ndjson');
    const before = clean.stats().completions;
    await cliJson(['fork', parent, '--at', '3', '--seed', '9', '--llm-base-url', clean.url, '--out', out]);
    expect(clean.stats().completions).toBeGreaterThan(before);
  });
});
