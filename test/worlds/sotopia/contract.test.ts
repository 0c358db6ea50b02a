import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../../src/llm-server/index.ts';
import { sotopiaScriptResponder } from '../../../worlds/sotopia/llm-responder.ts';
import { sotopiaContract } from '../../../worlds/sotopia/protocols/contract-sotopia.ts';
import { loadPack } from '../../../worlds/sotopia/protocols/pack.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

vi.setConfig({ testTimeout: 600_000 });

const pack = loadPack({ dir: '', contract: 'sotopia', repairs: true });
const NAMES = ['Ann Lee', 'Bo Kim'] as const;

/** A reply of Sotopia's judge contract, `[reasoning, score]` per dimension. */
function judgeReply(score: (d: string) => unknown = () => 0): Record<string, Record<string, unknown[]>> {
  const dims = [
    'believability',
    'relationship',
    'knowledge',
    'secret',
    'social_rules',
    'financial_and_material_benefits',
    'goal',
  ];
  const one = () => Object.fromEntries(dims.map((d) => [d, [`why ${d}`, score(d)]]));
  return { agent_1_evaluation: one(), agent_2_evaluation: one() };
}

describe("Sotopia's reply contract", () => {
  const turn = sotopiaContract.turn(pack, 'sotopia');
  const judge = sotopiaContract.judge(pack, NAMES, 'basic', 'sotopia');
  const parseTurn = (text: string) => turn.reading.sotopia!.parse(text);
  const parseJudge = (text: string) => judge.reading.sotopia!.parse(text);

  it('asks for action_type and argument with their meanings, in the schema the prompt shows', () => {
    const schema = JSON.parse(/```json\n(.*)\n```/s.exec(turn.format)![1]);
    expect(Object.keys(schema.properties)).toEqual(['action_type', 'argument']);
    expect(schema.properties.action_type).toMatchObject({ title: 'Action Type', type: 'string' });
    expect(schema.properties.action_type.description).toBe(pack.fields.turn.action_type);
    expect(schema.properties.argument.description).toBe(pack.fields.turn.argument);
    // json.dumps's separators, as LangChain wrote the schema into Sotopia's prompts
    expect(turn.format).toContain('{"properties": {"action_type": {"title": "Action Type", "description": ');
  });

  it('reads a turn as pydantic 1.x reads AgentAction: numbers become text, extra fields are ignored', () => {
    expect(parseTurn('Sure: {"action_type": "speak", "argument": "hi", "mood": "fine"}')).toEqual({
      ok: true,
      value: { action: 'speak', argument: 'hi' },
    });
    expect(parseTurn('{"action_type": "speak", "argument": 42}')).toEqual({
      ok: true,
      value: { action: 'speak', argument: '42' },
    });
    expect(parseTurn('{"action": "speak", "argument": "hi"}').ok).toBe(false);
    expect(parseTurn('{"action_type": "shout", "argument": "hi"}').ok).toBe(false);
  });

  it('reads the judge as agent_1_evaluation / agent_2_evaluation of [reasoning, score] pairs, in range', () => {
    const ok = parseJudge(JSON.stringify(judgeReply((d) => ({ goal: '7', believability: 2.9 })[d] ?? 0)));
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.value.agent0.goal).toEqual({ reasoning: 'why goal', score: 7 });
    expect(ok.value.agent1.believability.score).toBe(2); // int(2.9), as pydantic 1.x
    expect(parseJudge(JSON.stringify(judgeReply((d) => (d === 'secret' ? 3 : 0)))).ok).toBe(false);
    const objects = { agent0: { goal: { reasoning: 'x', score: 1 } } };
    expect(parseJudge(JSON.stringify(objects)).ok).toBe(false);
    const short = judgeReply();
    short.agent_2_evaluation.goal = ['only reasoning'];
    expect(parseJudge(JSON.stringify(short)).ok).toBe(false);
  });

  it('shows the judge one model per character in definitions, the rubric as each pair field\u2019s description', () => {
    const schema = JSON.parse(/```json\n(.*)\n```/s.exec(judge.format)![1]);
    expect(schema.properties.agent_1_evaluation).toEqual({
      $ref: `#/definitions/${pack.fields.evaluation.name}`,
    });
    const goal = schema.definitions[pack.fields.evaluation.name].properties.goal;
    expect(goal).toMatchObject({
      type: 'array',
      minItems: 2,
      maxItems: 2,
      description: pack.rubric.goal.steps,
    });
    expect(goal.items).toEqual([{ type: 'string' }, { type: 'integer', minimum: 0, maximum: 10 }]);
  });
});

describe('study sotopia and reply contracts', () => {
  let server: LocalLlmServer;
  beforeAll(async () => {
    server = await startLocalLlmServer({ port: 0, responders: [sotopiaScriptResponder] });
  });
  afterAll(async () => {
    await server.close();
  });
  const cli = (args: string[]) =>
    cliChecked(args, { env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' }, llm: server });
  const study = (out: string, ...extra: string[]) => [
    'study',
    'sotopia',
    '--scenarios',
    '01H7VFHP3DPGRXH1Y500VQKFZA',
    '--modes',
    'agents,script',
    '--max-turns',
    '2',
    '--judge-model',
    'same',
    '--model',
    'gpt-4o-mini',
    '--llm-base-url',
    server.url,
    '--out',
    out,
    '--quiet',
    ...extra,
  ];

  /** The study directory a world-2.1 study left after its first episode. */
  function oldStudy(): string {
    const dir = join(tempDir('grapevine-study-2.1-'), 'study');
    const fixture = resolve('test/worlds/sotopia/fixtures/study-world2.1');
    mkdirSync(join(dir, 'episodes'), { recursive: true });
    cpSync(join(fixture, 'study.json'), join(dir, 'study.json'));
    for (const f of readdirSync(join(fixture, 'episodes')))
      writeFileSync(
        join(dir, 'episodes', f.replace(/\.gz$/, '')),
        gunzipSync(readFileSync(join(fixture, 'episodes', f))),
      );
    return dir;
  }

  const header = (path: string) => JSON.parse(readFileSync(path, 'utf8').split('\n')[0]);

  it('resumes a study made by world 2.1 with its own (grapevine) contract: its episode kept, the next one run under it', async () => {
    const dir = oldStudy();
    const before = readFileSync(join(dir, 'study.json'), 'utf8');
    const r = await cli(study(dir));
    expect(r.code, r.stderr).toBe(0);
    const logs = readdirSync(join(dir, 'episodes')).sort();
    expect(logs).toEqual([
      'divide_things-00VQKFZA-p0-agents.ndjson',
      'divide_things-00VQKFZA-p0-script.ndjson',
    ]);
    expect(header(join(dir, 'episodes', logs[0])).world.version).toBe('2.1.0');
    const script = header(join(dir, 'episodes', logs[1]));
    expect(script.world.version).toBe('2.2.0');
    expect(script.params.contract).toBe('grapevine');
    const judge = readFileSync(join(dir, 'episodes', logs[1]), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"caller":"judge"'))
      .map((l) => JSON.parse(l));
    expect(judge[0].messages[0].content).toContain('{"agent0": E, "agent1": E}');
    expect(readFileSync(join(dir, 'study.json'), 'utf8')).toBe(before);
    const card = readFileSync(join(dir, 'card.md'), 'utf8');
    expect(card).toContain('reply contract: grapevine');
  });

  it('refuses to mix contracts in one directory, in a line that says how to go on', async () => {
    const old = oldStudy();
    const mixed = await cli(study(old, '--contract', 'sotopia'));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /holds a study under the grapevine reply contract; one directory never mixes contracts/,
    );
    expect(readdirSync(join(old, 'episodes'))).toHaveLength(1);
    const fresh = join(tempDir('grapevine-study-2.2-'), 'study');
    const first = await cli(study(fresh, '--max-episodes', '1'));
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(fresh, 'study.json'), 'utf8')).config.contract).toBe('sotopia');
    const other = await cli(study(fresh, '--contract', 'grapevine'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/under the sotopia reply contract/);
  });
});
