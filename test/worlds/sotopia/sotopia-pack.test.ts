import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Episode, findEnvironments, resolveEpisode } from '../../../worlds/sotopia/episode.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import { writeSotopiaPack } from '../../../worlds/sotopia/pack-from-sotopia/write-pack.ts';
import { sotopiaParams } from '../../../worlds/sotopia/params.ts';
import type { SotopiaProtocol } from '../../../worlds/sotopia/protocols/protocol.ts';
import { zhou2024Protocol } from '../../../worlds/sotopia/protocols/zhou2024.ts';
import type { RelationshipLevel } from '../../../worlds/sotopia/records.ts';
import { type ActionType, type TurnRecord, turnRecord } from '../../../worlds/sotopia/transcript.ts';
import type { Mode } from '../../../worlds/sotopia/views.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

const FIXTURES = resolve('test/worlds/sotopia/fixtures');
const CHECKOUT = join(FIXTURES, 'sotopia-checkout');
const LANGCHAIN = join(FIXTURES, 'langchain');
const ORACLE = join(FIXTURES, 'render_like_sotopia.py');
const python = spawnSync('python3', ['--version']).status === 0;

const data = importSotopia();

/** The turns every episode of the check plays: each action type, a said text holding the skip phrase and braces. */
const TURNS: { speaker: number; action: ActionType; text: string }[] = [
  { speaker: 0, action: 'speak', text: 'Morning. I sat still all day, {honestly}.' },
  { speaker: 1, action: 'non-verbal communication', text: 'nods slowly' },
  { speaker: 0, action: 'none', text: '' },
  { speaker: 1, action: 'action', text: 'hands over the "spare" keys' },
  { speaker: 0, action: 'speak', text: 'Thanks!' },
  { speaker: 1, action: 'leave', text: '' },
];
const CHECKED_TURNS = [0, 1, 3, 5];
const BAD_REPLY = 'not what was asked {format} at all';

/** Episodes at several relationship levels, with and without environment-only notes. */
function episodes(): { id: string; ep: Episode }[] {
  const at = (source: string, k: number, level: RelationshipLevel) => {
    const env = findEnvironments(data, `source:${source}`)[k];
    return {
      id: `${env.codename}-${level}`,
      ep: { ...resolveEpisode(data, env.env_id, 0), relationship: level },
    };
  };
  return [
    at('mutual_friends', 0, 'stranger'),
    at('mutual_friends', 1, 'know_by_name'),
    at('craigslist_bargains', 0, 'acquaintance'),
    at('social_chemistry', 0, 'friend'),
  ];
}

function transcriptOf(ep: Episode): TurnRecord[] {
  return TURNS.map((t, k) =>
    turnRecord(k + 1, t.speaker, ep.names[t.speaker], { action: t.action, argument: t.text }, false),
  );
}

function protocol(ep: Episode, pack: string, mode: Mode, rubric = 'basic'): SotopiaProtocol {
  const params = sotopiaParams.parse({
    mode,
    rubric,
    templates: pack,
    contract: 'sotopia',
    parsing: 'sotopia',
  });
  return zhou2024Protocol({ episode: ep, params, model: 'm', seed: 1 });
}

const text = (m: { content: string }[]) => {
  expect(m).toHaveLength(1);
  return m[0].content;
};

/** Every prompt of an episode as the world renders it with `pack`, keyed as the oracle keys them. */
function worldPrompts(id: string, ep: Episode, pack: string): Record<string, string> {
  const t = transcriptOf(ep);
  const out: Record<string, string> = {};
  for (const k of CHECKED_TURNS) {
    for (const mode of ['agents', 'mindreaders'] as const)
      out[`${id}/${mode}/${k}`] = text(protocol(ep, pack, mode).characterTurn(k % 2, t.slice(0, k)).messages);
    out[`${id}/playwright/${k}`] = text(
      protocol(ep, pack, 'playwright').playwrightTurn(k % 2, t.slice(0, k)).messages,
    );
  }
  const script = protocol(ep, pack, 'script');
  out[`${id}/script`] = text(script.script().messages);
  for (const rubric of ['basic', 'plus']) {
    out[`${id}/judge/played/${rubric}`] = text(
      protocol(ep, pack, 'agents', rubric).judge(t, 'leave')!.messages,
    );
    out[`${id}/judge/script/${rubric}`] = text(
      protocol(ep, pack, 'script', rubric).judge(t, 'script-end')!.messages,
    );
  }
  const agents = protocol(ep, pack, 'agents');
  out[`${id}/repair-json`] = text(
    agents.repairPrompt(agents.characterTurn(0, []).reading.sotopia!.repair, BAD_REPLY),
  );
  out[`${id}/repair-script`] = text(script.repairPrompt(script.script().reading.sotopia!.repair, BAD_REPLY));
  return out;
}

/** The same prompts rendered by the Python oracle from the checkout's own strings. */
function oraclePrompts(list: { id: string; ep: Episode }[]): {
  prompts: Record<string, string>;
  pydantic: boolean;
} {
  const request = {
    checkout: CHECKOUT,
    langchain: LANGCHAIN,
    episodes: list.map(({ id, ep }) => ({
      id,
      names: ep.names,
      relationship: ep.relationship,
      scenario: ep.env.scenario,
      goals: ep.env.agent_goals,
      profiles: ep.agents.map((a) => ({
        first_name: a.first_name,
        last_name: a.last_name,
        age: a.age,
        gender: a.gender,
        occupation: a.occupation,
        gender_pronoun: a.gender_pronoun,
        public_info: a.public_info,
        personality_and_values: a.personality_and_values,
        secret: a.secret,
      })),
      transcript: TURNS,
      turns: CHECKED_TURNS,
      bad: BAD_REPLY,
    })),
  };
  const r = spawnSync('python3', [ORACLE], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`the oracle failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('grapevine sotopia templates: a pack of Sotopia-shaped words from a checkout', () => {
  it.skipIf(!python)(
    'with a pack extracted from the fixture checkout, every prompt equals what the Python oracle renders from it, byte for byte',
    () => {
      const out = join(tempDir('grapevine-sotopia-pack-'), 'pack');
      const { files, warnings } = writeSotopiaPack(CHECKOUT, out, LANGCHAIN);
      expect(files).toContain('format-json.txt');
      // the fixture is not Sotopia's tag, and says so
      expect(warnings.every((w) => w.includes('is not the file of tag'))).toBe(true);
      const list = episodes();
      const oracle = oraclePrompts(list);
      const world = Object.assign({}, ...list.map(({ id, ep }) => worldPrompts(id, ep, out)));
      expect(Object.keys(world).sort()).toEqual(Object.keys(oracle.prompts).sort());
      for (const [key, prompt] of Object.entries(oracle.prompts)) expect(world[key], key).toBe(prompt);
      // the oracle's words are the fixture's, not the project's
      expect(Object.values(world).join('\n')).not.toContain('Context of the interaction');
      console.info(
        `sotopia pack: ${Object.keys(world).length} prompts equal; pydantic.v1 check ${oracle.pydantic ? 'ran' : 'not available'}`,
      );
    },
  );

  it('a checkout whose template lacks a placeholder is a one-line error naming the function', () => {
    const dir = tempDir('grapevine-sotopia-broken-');
    cpSync(CHECKOUT, join(dir, 'checkout'), { recursive: true });
    const gen = join(dir, 'checkout/sotopia/generation_utils/generate.py');
    writeFileSync(gen, readFileSync(gen, 'utf8').replace('Now Turn #{turn_number}.', 'Now a turn.'));
    expect(() => writeSotopiaPack(join(dir, 'checkout'), join(dir, 'pack'))).toThrow(
      /def agenerate_action \(agent template\) has the placeholders .*; expected .*\{turn_number\}/,
    );
    expect(existsSync(join(dir, 'pack'))).toBe(false);
  });

  it('the command: exit 2 with one line for a folder that is no checkout or a non-empty --out; exit 0 writes the pack', async () => {
    const dir = tempDir('grapevine-sotopia-templates-cli-');
    const none = await cliChecked(['sotopia', 'templates', '--from', dir, '--out', join(dir, 'p')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /is not a Sotopia checkout: it has no sotopia\/generation_utils\/generate\.py/,
    );
    const ok = await cliChecked([
      'sotopia',
      'templates',
      '--from',
      CHECKOUT,
      '--out',
      join(dir, 'p'),
      '--json',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const summary = JSON.parse(ok.stdout);
    expect(summary.files).toContain('pieces.json');
    expect(summary.warnings.some((w: string) => w.includes('--langchain'))).toBe(true);
    const again = await cliChecked(['sotopia', 'templates', '--from', CHECKOUT, '--out', join(dir, 'p')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is not empty');
  });
});
