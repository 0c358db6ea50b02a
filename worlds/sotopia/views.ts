import type { Episode } from './episode.ts';
import { renderFor, type Viewer } from './markup.ts';
import type { RelationshipLevel, SotopiaAgent } from './records.ts';

/** How the episode is played (the point of Zhou et al. 2024). */
export const MODES = ['agents', 'mindreaders', 'script', 'playwright'] as const;

/** A mode. */
export type Mode = (typeof MODES)[number];

/** The modes in which one omniscient writer (seat 2) produces the turns. */
export function isWriterMode(mode: Mode): boolean {
  return mode === 'script' || mode === 'playwright';
}

type Field = keyof SotopiaAgent;

const NAME: readonly Field[] = ['first_name', 'last_name'];
const PUBLIC: readonly Field[] = [...NAME, 'age', 'gender', 'gender_pronoun', 'occupation', 'public_info'];
const ALL_BUT_SECRET: readonly Field[] = [
  ...PUBLIC,
  'personality_and_values',
  'big_five',
  'moral_values',
  'schwartz_personal_values',
  'decision_making_style',
  'mbti',
];

/**
 * The profile fields an agent sees of its partner, by relationship level (the rule):
 * a stranger sees the name only; `know_by_name` also only the name (as in Sotopia's
 * `get_bio`, where level 1 adds nothing but the name outside the private part); an
 * acquaintance also the public profile (age, gender, pronouns, occupation, public info);
 * a friend, romantic partner or family member everything but the secret. Never the
 * secret, never the goal, never the `agent_id`.
 */
export const PARTNER_FIELDS: Readonly<Record<RelationshipLevel, readonly Field[]>> = {
  stranger: NAME,
  know_by_name: NAME,
  acquaintance: PUBLIC,
  friend: ALL_BUT_SECRET,
  romantic_relationship: ALL_BUT_SECRET,
  family_member: ALL_BUT_SECRET,
};

/** What an agent sees of its partner at `level`: exactly the fields of {@link PARTNER_FIELDS}. */
export function partnerView(partner: SotopiaAgent, level: RelationshipLevel): Partial<SotopiaAgent> {
  const out: Partial<Record<Field, unknown>> = {};
  for (const f of PARTNER_FIELDS[level]) out[f] = partner[f];
  return out as Partial<SotopiaAgent>;
}

const GENDER_ADJ: Record<string, string> = { Man: 'male', Woman: 'female', Nonbinary: 'nonbinary' };

/**
 * A profile (whole or partial) as text: the name, then only the fields present, each
 * verbatim. The secret is never part of it (prompts show one's own secret on its own line).
 */
export function describeProfile(p: Partial<SotopiaAgent>): string {
  const parts = [`${p.first_name ?? ''} ${p.last_name ?? ''}`.trim()];
  if (p.age !== undefined || p.occupation !== undefined) {
    const adj = p.gender === undefined ? '' : `${GENDER_ADJ[p.gender] ?? p.gender} `;
    parts[0] += `, a ${p.age ?? ''}-year-old ${adj}${p.occupation ?? ''}`.replace(/\s+/g, ' ');
  }
  if (p.gender_pronoun) parts[0] += ` (${p.gender_pronoun} pronouns)`;
  parts[0] += '.';
  if (p.public_info) parts.push(p.public_info);
  if (p.personality_and_values) parts.push(`Personality and values: ${p.personality_and_values}`);
  if (p.big_five) parts.push(`Big Five: ${p.big_five}.`);
  if (p.moral_values?.length) parts.push(`Moral values: ${p.moral_values.join(', ')}.`);
  if (p.schwartz_personal_values?.length)
    parts.push(`Schwartz personal values: ${p.schwartz_personal_values.join(', ')}.`);
  if (p.decision_making_style) parts.push(`Decision-making style: ${p.decision_making_style}.`);
  if (p.mbti) parts.push(`MBTI: ${p.mbti}.`);
  return parts.join(' ');
}

/** "strangers", "friends"... as a phrase about two people. */
export function relationshipPhrase(level: RelationshipLevel): string {
  return {
    stranger: 'strangers',
    know_by_name: 'people who know each other by name',
    acquaintance: 'acquaintances',
    friend: 'friends',
    romantic_relationship: 'in a romantic relationship',
    family_member: 'family members',
  }[level];
}

/** The viewer name of seat k in the markup. */
export function viewerOf(seat: number): Viewer {
  return `agent_${seat}`;
}

/** Seat k's goal as seat k sees it (its hints included). */
export function ownGoal(ep: Episode, seat: number): string {
  return renderFor(ep.env.agent_goals[seat], [viewerOf(seat)]);
}

/** Everything one agent (seat 0 or 1) may see before the conversation starts. */
export interface SeatView {
  seat: number;
  name: string;
  /** The scenario without other viewers' and environment-only sections. */
  scenario: string;
  /** Its own full profile (its secret is `self.secret`). */
  self: SotopiaAgent;
  goal: string;
  partnerName: string;
  /** The partner's profile fields its relationship level reveals. */
  partner: Partial<SotopiaAgent>;
  relationship: RelationshipLevel;
  /** Mindreaders only: the partner's goal (as the partner sees it) and secret. */
  partnerGoal?: string;
  partnerSecret?: string;
}

/** Seat k's view in `agents` mode, or in `mindreaders` mode (plus the partner's goal and secret). */
export function seatView(ep: Episode, seat: number, mode: Mode): SeatView {
  const other = 1 - seat;
  const view: SeatView = {
    seat,
    name: ep.names[seat],
    scenario: renderFor(ep.env.scenario, [viewerOf(seat)]),
    self: ep.agents[seat],
    goal: ownGoal(ep, seat),
    partnerName: ep.names[other],
    partner: partnerView(ep.agents[other], ep.relationship),
    relationship: ep.relationship,
  };
  if (mode === 'mindreaders') {
    view.partnerGoal = ownGoal(ep, other);
    view.partnerSecret = ep.agents[other].secret;
  }
  return view;
}

/** One character as an omniscient reader sees it. */
export interface CharacterSheet {
  seat: number;
  name: string;
  agent: SotopiaAgent;
  goal: string;
}

/**
 * What the omniscient writer (script, playwright) sees: both characters in full (profiles,
 * secrets, goals with their hints) and the scenario with both agents' sections, but not
 * the environment-only sections, which only the judge sees.
 */
export interface WriterView {
  scenario: string;
  characters: [CharacterSheet, CharacterSheet];
  relationship: RelationshipLevel;
}

function sheets(ep: Episode, goalFor: (seat: number) => string): [CharacterSheet, CharacterSheet] {
  return [0, 1].map((seat) => ({
    seat,
    name: ep.names[seat],
    agent: ep.agents[seat],
    goal: goalFor(seat),
  })) as [CharacterSheet, CharacterSheet];
}

/** The writer's view. */
export function writerView(ep: Episode): WriterView {
  return {
    scenario: renderFor(ep.env.scenario, [viewerOf(0), viewerOf(1)]),
    characters: sheets(ep, (seat) => ownGoal(ep, seat)),
    relationship: ep.relationship,
  };
}

/** What the environment (the judge) sees: everything, environment-only sections included. */
export function environmentView(ep: Episode): WriterView {
  return {
    scenario: renderFor(ep.env.scenario, ['environment']),
    characters: sheets(ep, (seat) => renderFor(ep.env.agent_goals[seat], ['environment'])),
    relationship: ep.relationship,
  };
}
