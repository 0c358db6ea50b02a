import type { PrivateItem } from '../../src/index.ts';
import { normalizeText } from '../../src/public/analysis.ts';
import type { Episode } from './episode.ts';
import { type MarkupSegment, parseMarkup, plainText, renderFor, tidy } from './markup.ts';
import type { Protocol } from './params.ts';
import { ENV_SEAT } from './seats.ts';
import { isWriterMode, type Mode, ownGoal, viewerOf, writerView } from './views.ts';

/** Kinds of private items a Sotopia run declares for the prompt audit. */
export type PrivateKind = 'goal' | 'goal-info' | 'secret' | 'private-view' | 'environment';

function ownerOf(viewer: string | null, fallback: number): number {
  if (viewer === 'environment') return -1;
  const m = viewer ? /^agent_(\d+)$/.exec(viewer) : null;
  return m ? Number(m[1]) : fallback;
}

/** Items of one marked-up text: restricted sections by their viewer, hints by `owner`. */
function segmentItems(segments: readonly MarkupSegment[], owner: number): PrivateItem[] {
  const out: PrivateItem[] = [];
  for (const s of segments) {
    const text = tidy(s.text);
    const who = ownerOf(s.viewer, owner);
    if (who === -1) out.push({ owner: -1, kind: 'environment', text });
    else if (who !== owner) out.push({ owner: who, kind: 'private-view', text });
    else if (s.tags.length > 0) out.push({ owner, kind: 'goal-info', text });
  }
  return out;
}

function rawItems(ep: Episode): PrivateItem[] {
  const items: PrivateItem[] = [];
  for (const seat of [0, 1]) {
    const segments = parseMarkup(ep.env.agent_goals[seat]);
    items.push({ owner: seat, kind: 'goal', text: plainText(segments) });
    items.push(...segmentItems(segments, seat));
    items.push({ owner: seat, kind: 'secret', text: ep.agents[seat].secret });
  }
  items.push(...segmentItems(parseMarkup(ep.env.scenario), -2).filter((i) => i.owner !== -2));
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = `${i.owner}|${i.kind}|${i.text}`;
    if (normalizeText(i.text) === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Text a seat has of its own, whatever the mode: the scenario as it sees it, its goal, its
 * profile and secret (for the writer, its whole view). Another agent's private text found
 * in here is not a leak (e.g. both characters of prison_dilemma have the same goal).
 */
function ownText(ep: Episode, seat: number): string {
  if (seat === ENV_SEAT) {
    const w = writerView(ep);
    return [w.scenario, ...w.characters.flatMap((c) => [c.goal, c.agent.secret])].join('\n');
  }
  const a = ep.agents[seat];
  return [
    renderFor(ep.env.scenario, [viewerOf(seat)]),
    ownGoal(ep, seat),
    a.public_info,
    a.personality_and_values,
    a.secret,
  ].join('\n');
}

/**
 * Seats whose prompts the mode's rules allow to hold an item of `owner` of `kind`. In
 * zhou2024 the mindreaders and the writer read the environment's background (Sotopia's
 * omniscient mode): environment-only text and the other's private scenario sections too.
 */
function allowedByMode(mode: Mode, owner: number, kind: string, protocol: Protocol): number[] {
  if (protocol === 'zhou2024') {
    if (isWriterMode(mode)) return [ENV_SEAT];
    if (mode === 'mindreaders') return owner === -1 ? [0, 1] : [1 - owner];
    return [];
  }
  if (owner < 0) return [];
  if (isWriterMode(mode)) return [ENV_SEAT];
  if (mode === 'mindreaders' && (kind === 'goal' || kind === 'goal-info' || kind === 'secret'))
    return [1 - owner];
  return [];
}

/**
 * The private items of an episode, for `auditPrompts`: per character its goal (the text
 * outside the hints), each hint section of its goal (`goal-info`), its secret, and any
 * scenario section only it may see (`private-view`); environment-only sections have owner
 * -1. `visibleTo` lists the prompt callers allowed to hold the item: in `mindreaders` the
 * partner (goal, goal-info, secret); in `script` / `playwright` the writer, seat 2
 * (everything of both characters; environment-only text stays with the judge, whose
 * caller "judge" the audit does not check); and any seat that has the same text of its own.
 */
export function privateItemsOf(ep: Episode, mode: Mode, protocol: Protocol = 'grapevine-v0'): PrivateItem[] {
  const seats = isWriterMode(mode) ? [0, 1, ENV_SEAT] : [0, 1];
  const own = seats.map((s) => normalizeText(ownText(ep, s)));
  return rawItems(ep).map((item) => {
    const norm = normalizeText(item.text);
    const visible = new Set(allowedByMode(mode, item.owner, item.kind, protocol));
    seats.forEach((s, k) => {
      if (s !== item.owner && own[k].includes(norm)) visible.add(s);
    });
    const visibleTo = [...visible].sort((a, b) => a - b);
    return visibleTo.length > 0 ? { ...item, visibleTo } : item;
  });
}
