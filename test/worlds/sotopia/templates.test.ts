import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/index.ts';
import { startLocalLlmServer } from '../../../src/llm-server/index.ts';
import { sotopiaScriptResponder } from '../../../worlds/sotopia/llm-responder.ts';
import { fillTemplate } from '../../../worlds/sotopia/protocols/fill.ts';
import { DEFAULT_TEMPLATES_DIR, loadPack } from '../../../worlds/sotopia/protocols/pack.ts';
import { PROMPTS } from '../../../worlds/sotopia/protocols/pack-files.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('sotopia-templates');

const EMPTY = { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' };

/**
 * The CLI in this process (the CLI's `main`: what a run writes and refuses; a process start
 * costs ~0.3 CPU-s), with the OpenAI variables set but empty for the command only (they must
 * count as unset); it may leave open only idle keep-alive connections to `server`.
 */
const cli = (...args: string[]) => cliChecked(args, { env: EMPTY, llm: server });

function templatesDir(name: string, files: Record<string, string>): string {
  const d = mkdtempSync(join(dir, `${name}-`));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
  return d;
}

const USER_CHARACTER =
  'TEMPLATE-MARKER-7f3: you play {agent}; the turn is {turn}.\nWhat happened:\n{history}\nAnswer as {format}\n';
const userDir = templatesDir('user', { 'character.txt': USER_CHARACTER });
const brokenDir = templatesDir('broken', { 'judge.txt': 'Judge this: {format}\n' });
const log = join(dir, 'user.ndjson');
let server: Awaited<ReturnType<typeof startLocalLlmServer>>;

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0, responders: [sotopiaScriptResponder] });
});
afterAll(async () => {
  await server.close();
});

describe('prompt templates as data', () => {
  it('the shipped templates use every required placeholder and no unknown one', () => {
    const t = loadPack({ dir: '', contract: 'sotopia', repairs: true });
    for (const [name, p] of Object.entries(PROMPTS))
      for (const req of p.required) expect(t.text[name as keyof typeof PROMPTS]).toContain(`{${req}}`);
    expect(t.hashes['character.txt']).toBe(
      sha256Hex(readFileSync(join(DEFAULT_TEMPLATES_DIR, 'character.txt'), 'utf8')),
    );
    expect(fillTemplate('a {x} {x} {y}', { x: '1' })).toBe('a 1 1 {y}');
    expect(fillTemplate('{{x}} {x} }} {', { x: '1' }, true)).toBe('{x} 1 } {');
    expect(fillTemplate('{{x}} {x}', { x: '1' })).toBe('{1} 1'); // world 2.1's templates: no escapes
  });

  it('a template without a required placeholder is exit 2 naming it', async () => {
    expect(() => loadPack({ dir: brokenDir, contract: 'sotopia', repairs: true })).toThrow(
      /judge\.txt lacks the placeholder \{history\}/,
    );
    const r = await cli('run', 'sotopia', '--set', `templates=${brokenDir}`, '--llm-base-url', server.url);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('{history}');
    expect(r.stderr.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(2);
  });

  it('a user template appears verbatim in the recorded prompts, its hash in the header; the log replays', async () => {
    const run = await cli(
      'run',
      'sotopia',
      '--set',
      'scenario=mutual_friend_00001',
      '--set',
      'maxTurns=3',
      '--set',
      `templates=${userDir}`,
      '--set',
      'seatModels=["model-a","model-b"]',
      '--set',
      'judgeModel=judge-x',
      '--log',
      'full',
      '--out',
      log,
      '--llm-base-url',
      server.url,
      '--json',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const header = lines[0];
    expect(header.params).toMatchObject({ protocol: 'zhou2024', templates: userDir });
    expect(header.inputs.sotopia.templates['character.txt']).toBe(sha256Hex(USER_CHARACTER));
    const turns = lines.filter((l) => l.type === 'llm' && (l.caller === '0' || l.caller === '1'));
    expect(turns.length).toBeGreaterThan(0);
    for (const call of turns) {
      // seats 0 and 1 call their own models (--models A,B in a study)
      expect(call.params.model).toBe(call.caller === '0' ? 'model-a' : 'model-b');
      const prompt = call.messages.map((m: { content: string }) => m.content).join('\n');
      expect(
        prompt.startsWith(`TEMPLATE-MARKER-7f3: you play ${call.caller === '0' ? 'Lily' : 'Hendrick'}`),
      ).toBe(true);
      expect(prompt).toContain('\nWhat happened:\nContext of the interaction\n');
    }
    const judge = lines.filter((l) => l.type === 'llm' && l.caller === 'judge');
    expect(judge.map((l) => l.params.model)).toEqual(['judge-x']);
    expect(judge[0].params.temperature).toBe(0);
    expect(turns[0].params.temperature).toBe(1);
    await server.close();
    const replay = await cli('replay', log, '--verify', '--json');
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true });
    server = await startLocalLlmServer({ port: 0, responders: [sotopiaScriptResponder] });
  }, 300_000);
});
