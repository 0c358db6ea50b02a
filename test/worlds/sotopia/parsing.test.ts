import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LlmPort, LlmReply, LlmRequest } from '../../../src/public/llm.ts';
import { migrateSotopiaParams } from '../../../worlds/sotopia/params.ts';
import { askSotopia, REPAIR_TEMPERATURE } from '../../../worlds/sotopia/protocols/ask.ts';
import { grapevineContract } from '../../../worlds/sotopia/protocols/contract-grapevine.ts';
import { loadPack } from '../../../worlds/sotopia/protocols/pack.ts';
import { parsePydanticJson } from '../../../worlds/sotopia/protocols/pydantic-json.ts';
import { parseScript } from '../../../worlds/sotopia/protocols/script-parser.ts';
import { repairPrompt } from '../../../worlds/sotopia/protocols/zhou2024-prompts.ts';
import { turnReplySchema } from '../../../worlds/sotopia/transcript.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

// The commands run in this process (the CLI's `main`, nothing left open, the OpenAI variables
// removed for the command only): what is checked is what they write, and a process start
// costs ~0.3 CPU-s; study-cli.test.ts kills a study in a real process.
const NAMES = ['Oliver Thompson', 'Esmeralda Solis'] as const;

describe("Sotopia's free-text script parser (message_classes.py rules)", () => {
  it('reads the five action forms, in order, with their arguments', () => {
    const text = [
      'Turn #1',
      'Oliver Thompson said: "Hey Esmeralda, what\'s wrong? You seem upset."',
      'Turn #2',
      'Esmeralda Solis [action] moved closer',
      'Turn #3',
      'Oliver Thompson [non-verbal communication] smiled',
      'Turn #4',
      'Esmeralda Solis did nothing',
      'Turn #5',
      'Oliver Thompson left the conversation',
    ].join('\n');
    const r = parseScript(text, NAMES);
    expect(r).toEqual({
      ok: true,
      lines: [
        { name: NAMES[0], action: 'speak', argument: "Hey Esmeralda, what's wrong? You seem upset." },
        { name: NAMES[1], action: 'action', argument: 'moved closer' },
        { name: NAMES[0], action: 'non-verbal communication', argument: 'smiled' },
        { name: NAMES[1], action: 'none', argument: '' },
        { name: NAMES[0], action: 'leave', argument: '' },
      ],
    });
  });

  it('accepts "Turn 3:" and "[speak] said:", cuts a said text at its first closing quote', () => {
    const r = parseScript('Turn 1:\nOliver Thompson [speak] said: "Hi "there" you"', NAMES);
    expect(r).toEqual({ ok: true, lines: [{ name: NAMES[0], action: 'speak', argument: 'Hi' }] });
  });

  it('gives a line naming neither character to the character in that position', () => {
    const r = parseScript('Turn #1\nOliver said: "a"\nTurn #2\nSomeone Else said: "b"', NAMES);
    expect(r.ok && r.lines.map((l) => l.name)).toEqual([NAMES[0], NAMES[1]]);
  });

  it('keeps only the first two lines of the last turn, and drops text before the first turn', () => {
    const r = parseScript('Here is the script:\nTurn #1\nOliver Thompson said: "a"\n(the end)\nmore', NAMES);
    expect(r).toEqual({ ok: true, lines: [{ name: NAMES[0], action: 'speak', argument: 'a' }] });
  });

  it.each([
    ['no turn line', 'Oliver Thompson said: "hi"'],
    [
      'two characters in one turn',
      'Turn #1\nOliver Thompson said: "a"\nEsmeralda Solis said: "b"\nTurn #2\nX did nothing',
    ],
    ['an action without brackets', 'Turn #1\nEsmeralda Solis non-verbal communication moved closer'],
    ['a lower-case name', 'Turn #1\noliver said: "a"'],
  ])('rejects %s', (_what, text) => {
    expect(parseScript(text, NAMES).ok).toBe(false);
  });
});

describe("LangChain's PydanticOutputParser reading of JSON replies", () => {
  it('takes the text from the first { to the last }, allowing raw newlines inside strings', () => {
    const text = 'Sure! ```json\n{"action": "speak", "argument": "line one\nline two"}\n``` done';
    expect(parsePydanticJson(text, turnReplySchema)).toEqual({
      ok: true,
      value: { action: 'speak', argument: 'line one\nline two' },
    });
  });

  it.each([
    ['no object', 'I will speak'],
    ['a trailing comma', '{"action": "speak", "argument": "x",}'],
    ['single quotes', "{'action': 'speak', 'argument': 'x'}"],
    ['an unknown action', '{"action": "shout", "argument": "x"}'],
  ])('rejects %s (Sotopia repairs with a model call, not in code)', (_what, text) => {
    expect(parsePydanticJson(text, turnReplySchema).ok).toBe(false);
  });
});

/** A port that answers from a list, recording every request. */
function scriptedPort(replies: string[]): LlmPort & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    requests,
    async complete(request: LlmRequest): Promise<LlmReply> {
      requests.push(request);
      const text = replies[requests.length - 1] ?? '';
      return { model: request.params.model, text, usage: { input: 1, output: 1 } } as LlmReply;
    },
  } as LlmPort & { requests: LlmRequest[] };
}

describe('one call, one repair call (generate.py agenerate / format_bad_output)', () => {
  const wording = {
    pack: loadPack({ dir: '', contract: 'grapevine', repairs: true }),
    rendering: grapevineContract.rendering,
  };
  const base: LlmRequest = {
    caller: '0',
    tick: 1,
    purpose: 'turn',
    messages: [{ role: 'user', content: 'act' }],
    params: { model: 'agent-model', temperature: 1, json: { name: 'x', schema: {} } },
  };
  const ask = (port: LlmPort) =>
    askSotopia({
      llm: port,
      request: base,
      parse: (t) => parsePydanticJson(t, turnReplySchema),
      repair: { template: 'repair-json', format: 'FORMAT-TEXT' },
      repairPrompt: (spec, bad) => repairPrompt(wording, spec, bad),
      repairModel: 'repair-model',
    });

  it('a readable first reply is used; no JSON mode is asked', async () => {
    const port = scriptedPort(['{"action":"speak","argument":"hi"}']);
    const r = await ask(port);
    expect(r).toEqual({ ok: true, value: { action: 'speak', argument: 'hi' }, errors: [] });
    expect(port.requests).toHaveLength(1);
    expect(port.requests[0].params.json).toBeUndefined();
  });

  it('an unreadable reply is repaired once, by the repair model at 0.7, shown the bad text and the format', async () => {
    const port = scriptedPort(['I say hi', '{"action":"speak","argument":"hi"}']);
    const r = await ask(port);
    expect(r.ok).toBe(true);
    const repair = port.requests[1];
    expect(repair.purpose).toBe('turn:repair');
    expect(repair.params).toMatchObject({ model: 'repair-model', temperature: REPAIR_TEMPERATURE });
    expect(repair.params.json).toBeUndefined();
    expect(repair.messages[0].content).toContain('I say hi');
    expect(repair.messages[0].content).toContain('FORMAT-TEXT');
  });

  it('a repair that does not parse either fails the ask, with both errors', async () => {
    const port = scriptedPort(['nope', 'still nope', 'never asked']);
    const r = await ask(port);
    expect(r.ok).toBe(false);
    expect(port.requests).toHaveLength(2);
    expect(r.errors).toHaveLength(2);
  });
});

describe('parsing option', () => {
  it('logs of world 1.x and 2.0.x replay with parsing=reask; 2.1 logs keep theirs; all of them with the grapevine contract', () => {
    expect(migrateSotopiaParams({ protocol: 'zhou2024' }, '2.0.0')).toMatchObject({
      parsing: 'reask',
      contract: 'grapevine',
    });
    expect(migrateSotopiaParams({}, '1.2.0')).toMatchObject({ protocol: 'grapevine-v0', parsing: 'reask' });
    expect(migrateSotopiaParams({ parsing: 'sotopia' }, '2.1.0')).toMatchObject({
      parsing: 'sotopia',
      contract: 'grapevine',
    });
    expect(migrateSotopiaParams({ parsing: 'sotopia' }, '2.2.0').contract).toBeUndefined();
  });

  function llmRecords(path: string): Record<string, unknown>[] {
    return readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.type === 'llm');
  }

  it('zhou2024 asks the script writer for a free-text script (no JSON mode) and reads it; reask asks for JSON', async () => {
    const dir = tempDir('sotopia-parsing');
    const env = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined };
    const run = (name: string, extra: string[]) =>
      cliChecked(
        [
          'run',
          'sotopia',
          '--set',
          'mode=script',
          '--set',
          'judgeModel=j',
          ...extra,
          '--log',
          'full',
          '--quiet',
          '--out',
          join(dir, name),
        ],
        { env },
      );
    const free = await run('free.ndjson', []);
    const json = await run('json.ndjson', ['--set', 'parsing=reask']);
    expect(free.code, free.stderr).toBe(0);
    expect(json.code, json.stderr).toBe(0);
    const script = llmRecords(join(dir, 'free.ndjson')).find((e) => e.purpose === 'write-script')!;
    const params = script.params as Record<string, unknown>;
    expect(params.json).toBeUndefined();
    expect(JSON.stringify(script.messages)).toContain('Turn #n');
    expect(parseScript((script.reply as { text: string }).text, ['x', 'y'] as const).ok).toBe(true);
    const judge = llmRecords(join(dir, 'free.ndjson')).find((e) => e.caller === 'judge')!;
    expect((judge.params as Record<string, unknown>).json).toBeUndefined();
    expect(JSON.stringify(judge.messages)).toContain('```json');
    const reask = llmRecords(join(dir, 'json.ndjson')).find((e) => e.purpose === 'write-script')!;
    expect((reask.params as Record<string, unknown>).json).toBeDefined();
    const verify = await cliChecked(['replay', join(dir, 'free.ndjson'), '--verify']);
    expect(verify.code, verify.stderr).toBe(0);
  });
});

describe('episodes whose judgement fails are rerun whole (fix_missing_episodes.py)', () => {
  it('a study runs such an episode again with a derived seed, up to 3 attempts, reports the last, and resumes an attempt', async () => {
    const dir = tempDir('sotopia-rerun');
    // Templates that hide the reply schema from the local server (a fence opened before it),
    // so every judgement, and its repair, comes back unreadable.
    const templates = join(dir, 'templates');
    mkdirSync(templates);
    writeFileSync(join(templates, 'judge.txt'), '```json\nJudge the episode.\n{history}\n{format}\n');
    writeFileSync(join(templates, 'repair-json.txt'), '```json\nFix this: {ill_formed}\n{format}\n');
    const out = join(dir, 'study');
    const args = [
      'study',
      'sotopia',
      '--modes',
      'agents',
      '--scenarios',
      'mutual_friend_00001',
      '--pairs',
      '1',
      '--max-turns',
      '2',
      '--judge-model',
      'judge-model',
      '--templates',
      templates,
      '--out',
      out,
    ];
    const env = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined };
    const first = await cliChecked(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const row = report.episodes[0];
    expect(row.missing).toBe(true);
    expect(row.attempts).toBe(3);
    expect(row.log).toMatch(/\.attempt3\.ndjson$/);
    const base = join(out, row.log.replace(/\.attempt3\.ndjson$/, ''));
    const seeds = [`${base}.ndjson`, `${base}.attempt2.ndjson`, `${base}.attempt3.ndjson`].map(
      (f) => JSON.parse(readFileSync(f, 'utf8').split('\n')[0]).seed as number,
    );
    expect(new Set(seeds).size).toBe(3);
    const third = readFileSync(`${base}.attempt3.ndjson`, 'utf8');
    rmSync(`${base}.attempt3.ndjson`);
    const again = await cliChecked(args, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(`${base}.attempt3.ndjson`)).toBe(true);
    const rerun = readFileSync(`${base}.attempt3.ndjson`, 'utf8');
    const digestOf = (log: string) => log.trimEnd().split('\n').at(-1);
    expect(JSON.parse(digestOf(rerun)!).h).toBe(JSON.parse(digestOf(third)!).h);
  });
});
