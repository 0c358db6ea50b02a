import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../../src/metrics/normalize-text.ts';
import { type Episode, findEnvironments, resolveEpisode } from '../../../worlds/sotopia/episode.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import { plainText } from '../../../worlds/sotopia/markup.ts';
import { type Contract, sotopiaParams } from '../../../worlds/sotopia/params.ts';
import { privateItemsOf } from '../../../worlds/sotopia/private-items.ts';
import { trailingNone, zhouEndReason } from '../../../worlds/sotopia/protocols/end-rules.ts';
import type { SotopiaProtocol } from '../../../worlds/sotopia/protocols/protocol.ts';
import { zhou2024Protocol } from '../../../worlds/sotopia/protocols/zhou2024.ts';
import { RELATIONSHIP_LEVELS, type RelationshipLevel } from '../../../worlds/sotopia/records.ts';
import { ENV_SEAT } from '../../../worlds/sotopia/seats.ts';
import type { TurnRecord } from '../../../worlds/sotopia/transcript.ts';
import type { Mode } from '../../../worlds/sotopia/views.ts';

const data = importSotopia();
const SOURCES = ['craigslist_bargains', 'mutual_friends', 'social_chemistry'] as const;
const MODES: Mode[] = ['agents', 'mindreaders', 'script', 'playwright'];

/** The first scenario of a source, its pair 0, played at `level` (the level decides the partner view). */
function episodeAt(source: string, level: RelationshipLevel): Episode {
  const env = findEnvironments(data, `source:${source}`)[0];
  return { ...resolveEpisode(data, env.env_id, 0), relationship: level };
}

/** The zhou2024 protocol of an episode in a mode, with the shipped pack. */
function protocolOf(
  ep: Episode,
  mode: Mode,
  contract: Contract,
  extra: Record<string, unknown> = {},
): SotopiaProtocol {
  const params = sotopiaParams.parse({ mode, contract, ...extra });
  return zhou2024Protocol({ episode: ep, params, model: 'm', seed: 1 });
}

/** The first prompt each reader gets in a mode: seats 0 and 1, or the writer (seat 2). */
function promptsOf(ep: Episode, mode: Mode, contract: Contract): Map<number, string> {
  const p = protocolOf(ep, mode, contract);
  const text = (m: { content: string }[]) => m.map((x) => x.content).join('\n');
  if (mode === 'script') return new Map([[ENV_SEAT, text(p.script().messages)]]);
  if (mode === 'playwright') return new Map([[ENV_SEAT, text(p.playwrightTurn(0, []).messages)]]);
  return new Map([0, 1].map((seat) => [seat, text(p.characterTurn(seat, []).messages)]));
}

const has = (prompt: string, item: string) => normalizeText(prompt).includes(normalizeText(item));

/** What the partner (seat 1) of seat 0 shows at each level in agents mode (Sotopia's get_bio). */
const PARTNER_SEES: Record<RelationshipLevel, { name: boolean; publicInfo: boolean; personality: boolean }> =
  {
    stranger: { name: false, publicInfo: false, personality: false },
    know_by_name: { name: true, publicInfo: false, personality: false },
    acquaintance: { name: true, publicInfo: true, personality: false },
    friend: { name: true, publicInfo: true, personality: true },
    romantic_relationship: { name: true, publicInfo: true, personality: true },
    family_member: { name: true, publicInfo: true, personality: true },
  };

const CONTRACTS: Contract[] = ['sotopia', 'grapevine'];
const CASES = CONTRACTS.flatMap((contract) =>
  MODES.flatMap((mode) =>
    RELATIONSHIP_LEVELS.flatMap((level) => SOURCES.map((source) => ({ contract, mode, level, source }))),
  ),
);

describe('zhou2024: which private item reaches which prompt (modes × levels × sources)', () => {
  it.each(CASES)('$contract contract, $mode, $level, $source', ({ contract, mode, level, source }) => {
    const ep = episodeAt(source, level);
    const prompts = promptsOf(ep, mode, contract);
    const items = privateItemsOf(ep, mode, 'zhou2024');
    const envNotes = items.filter((i) => i.owner === -1);
    if (source === 'mutual_friends') expect(envNotes.length).toBeGreaterThan(0);
    const [a, b] = ep.agents;
    for (const [reader, prompt] of prompts) {
      const omniscient = mode !== 'agents';
      // environment-only notes: mindreaders and the writer, never agents
      for (const n of envNotes) expect(has(prompt, n.text), `${reader} env note`).toBe(omniscient);
      if (omniscient) {
        for (const c of [a, b]) {
          expect(has(prompt, c.secret)).toBe(true);
          expect(has(prompt, c.personality_and_values)).toBe(true);
          expect(has(prompt, c.public_info)).toBe(true);
        }
        for (const g of ep.env.agent_goals) expect(has(prompt, plainText(g))).toBe(true);
      } else {
        const self = ep.agents[reader];
        const partner = ep.agents[1 - reader];
        const sees = PARTNER_SEES[level];
        expect(has(prompt, partner.secret)).toBe(false);
        expect(has(prompt, plainText(ep.env.agent_goals[1 - reader]))).toBe(
          plainText(ep.env.agent_goals[0]) === plainText(ep.env.agent_goals[1]),
        );
        expect(has(prompt, plainText(ep.env.agent_goals[reader]))).toBe(true);
        // Sotopia shows the two profiles only when both render: between strangers neither
        expect(has(prompt, self.secret)).toBe(level !== 'stranger');
        expect(has(prompt, partner.public_info)).toBe(sees.publicInfo);
        expect(has(prompt, partner.personality_and_values)).toBe(sees.personality);
        expect(prompt.includes(`${partner.first_name} ${partner.last_name}'s background`)).toBe(sees.name);
        // never the fields get_bio does not give
        expect(prompt).not.toMatch(/Big Five|MBTI|Schwartz|Decision-making/);
      }
      // the audit's declared visibility agrees: every other owner's item found here is declared for this reader
      for (const i of items)
        if (i.owner !== reader && has(prompt, i.text))
          expect(i.visibleTo ?? [], `${mode} ${reader} ${i.kind}`).toContain(reader);
    }
  });
});

describe('zhou2024 episode rules', () => {
  const t = (speaker: number, action: TurnRecord['action']): TurnRecord => ({
    turn: 0,
    speaker,
    name: String(speaker),
    action,
    text: action === 'none' ? '' : 'x',
    fallback: false,
  });
  it("counts the waiting seat's none: seat 1 passing ends the episode, seat 0 may pass once", () => {
    expect(trailingNone([t(0, 'none')])).toBe(2);
    expect(zhouEndReason([t(0, 'none')], 20, 2)).toBeNull();
    expect(zhouEndReason([t(0, 'speak'), t(1, 'none')], 20, 2)).toBe('idle');
    expect(zhouEndReason([t(0, 'speak'), t(1, 'speak'), t(0, 'none')], 20, 2)).toBeNull();
    expect(zhouEndReason([t(0, 'speak'), t(1, 'leave')], 20, 2)).toBe('leave');
  });
  it('ends when the turn number exceeds maxTurns: maxTurns + 1 turns', () => {
    const turns = Array.from({ length: 21 }, (_, k) => t(k % 2, 'speak'));
    expect(zhouEndReason(turns.slice(0, 20), 20, 2)).toBeNull();
    expect(zhouEndReason(turns, 20, 2)).toBe('max-turns');
  });
  it('the judge reads the omniscient background, no "did nothing" turn, no end reason', () => {
    const ep = episodeAt('mutual_friends', 'stranger');
    const turns = [t(0, 'speak'), t(1, 'none')].map((x, k) => ({ ...x, name: ep.names[k] }));
    const judged = (mode: Mode, rubric: string) =>
      protocolOf(ep, mode, 'sotopia', { rubric }).judge(turns, 'leave')!.messages[0].content;
    const played = judged('agents', 'basic');
    expect(played).toContain(`Turn #1\n${ep.names[0]} said: "x"\nTurn #2\n`);
    expect(played).not.toContain('did nothing');
    expect(played).not.toMatch(/\bscript\b|\bended\b|max-turns|\bidle\b/i);
    for (const n of privateItemsOf(ep, 'agents', 'zhou2024').filter((i) => i.owner === -1))
      expect(has(played, n.text)).toBe(true);
    expect(played).toContain('<naturalness>');
    expect(played).not.toContain('Bands:');
    const plus = judged('script', 'plus');
    expect(plus).toContain('Bands:');
    expect(plus).not.toContain('Turn #');
  });
});
