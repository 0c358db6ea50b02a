import type { Episode } from '../episode.ts';
import { renderFor, renderKeepingSpace, type Viewer } from '../markup.ts';
import type { RelationshipLevel, SotopiaAgent } from '../records.ts';
import { viewerOf } from '../views.ts';
import type { Rendering } from './contract.ts';
import { fillTemplate } from './fill.ts';
import type { Pack } from './pack.ts';
import { formatDocstring } from './python-text.ts';

/**
 * The zhou2024 background of an episode: what Sotopia's `ScriptBackground` holds for one
 * reader (sotopia/envs/parallel.py, `get_bio` and `reset`). A reader is a character seat
 * (0, 1: agents mode) or `omniscient` (mindreaders, the writer, the judge: Sotopia renders
 * the background for the environment and hands it over whole). The words come from the
 * pack's pieces; which parts a reader gets is Sotopia's rule, decided here.
 */
export type Reader = 0 | 1 | 'omniscient';

/** One reader's background. */
export interface Background {
  scenario: string;
  names: [string, string];
  /** Each character's profile as the reader sees it ('' = nothing of it). */
  bios: [string, string];
  /** Each character's goal as the reader sees it (the pack's unknown goal for the partner in agents mode). */
  goals: [string, string];
}

/** The texts a background is made with: the pack's words and the contract's rendering rules. */
export interface Wording {
  pack: Pack;
  rendering: Rendering;
}

const GENDER_PIECE = { Man: 'gender-man', Woman: 'gender-woman', Nonbinary: 'gender-nonbinary' } as const;

function fill(w: Wording, text: string, values: Record<string, string>): string {
  return fillTemplate(text, values, w.rendering.escapes);
}

/** A profile's four parts, in Sotopia's `get_bio` order: name, public part, personality, secret. */
function bioParts(w: Wording, a: SotopiaAgent): [string, string, string, string] {
  const p = w.pack.pieces;
  const gender = a.gender in GENDER_PIECE ? p[GENDER_PIECE[a.gender as keyof typeof GENDER_PIECE]] : a.gender;
  const values = {
    first_name: a.first_name,
    last_name: a.last_name,
    age: String(a.age),
    gender,
    occupation: a.occupation.toLowerCase(),
    pronouns: a.gender_pronoun,
    public_info: a.public_info,
    personality: a.personality_and_values,
    secret: a.secret,
  };
  return [
    fill(w, p['bio-name'], values),
    fill(w, p['bio-public'], values),
    fill(w, p['bio-personality'], values),
    fill(w, p['bio-secret'], values),
  ];
}

/**
 * A character's profile as another character sees it at `level` (Sotopia's `get_bio`
 * rendered for the partner): a stranger nothing, `know_by_name` the name, an acquaintance
 * also age, gender, occupation, pronouns and public info, a friend, romantic partner or
 * family member also personality and values. Never the secret.
 */
export function partnerBio(w: Wording, a: SotopiaAgent, level: RelationshipLevel): string {
  const [name, pub, personality] = bioParts(w, a);
  switch (level) {
    case 'stranger':
      return '';
    case 'know_by_name':
      return name;
    case 'acquaintance':
      return name + pub;
    default:
      return name + pub + personality;
  }
}

/** A character's whole profile, secret included (its own view; omniscient readers). */
export function fullBio(w: Wording, a: SotopiaAgent): string {
  return bioParts(w, a).join('');
}

function render(w: Wording, text: string, viewers: readonly Viewer[]): string {
  return w.rendering.keepWhitespace ? renderKeepingSpace(text, viewers) : renderFor(text, viewers);
}

/** The background one reader gets. */
export function backgroundFor(w: Wording, ep: Episode, reader: Reader): Background {
  if (reader === 'omniscient') {
    const env: Viewer[] = ['environment'];
    return {
      scenario: render(w, ep.env.scenario, env),
      names: ep.names,
      bios: [fullBio(w, ep.agents[0]), fullBio(w, ep.agents[1])],
      goals: [render(w, ep.env.agent_goals[0], env), render(w, ep.env.agent_goals[1], env)],
    };
  }
  const other = 1 - reader;
  const unknown = w.pack.pieces['goal-unknown'];
  const bios: [string, string] = ['', ''];
  const goals: [string, string] = [unknown, unknown];
  bios[reader] = fullBio(w, ep.agents[reader]);
  bios[other] = partnerBio(w, ep.agents[other], ep.relationship);
  goals[reader] = render(w, ep.env.agent_goals[reader], [viewerOf(reader)]);
  return { scenario: render(w, ep.env.scenario, [viewerOf(reader)]), names: ep.names, bios, goals };
}

/**
 * A background as text. As in Sotopia's `ScriptBackground.to_natural_language`, the two
 * profiles appear only when both are non-empty: between strangers (the partner's profile
 * empty) a character sees neither profile, only the scenario and the goals.
 */
export function backgroundText(w: Wording, b: Background): string {
  const both = b.bios[0] !== '' && b.bios[1] !== '';
  const text = fill(w, w.pack.pieces[both ? 'context' : 'context-without-bios'], {
    scenario: b.scenario,
    name_1: b.names[0],
    name_2: b.names[1],
    bio_1: b.bios[0],
    bio_2: b.bios[1],
    goal_1: b.goals[0],
    goal_2: b.goals[1],
  });
  return w.rendering.cleanContext ? formatDocstring(text) : text;
}
