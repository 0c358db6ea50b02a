import type { Episode } from './episode.ts';
import { renderFor } from './markup.ts';
import type { RelationshipLevel, SotopiaAgent } from './records.ts';
import { viewerOf } from './views.ts';

/**
 * The zhou2024 background of an episode: what Sotopia's `ScriptBackground` holds for one
 * reader (sotopia/envs/parallel.py, `get_bio` and `reset`). A reader is a character seat
 * (0, 1: agents mode) or `omniscient` (mindreaders, the writer, the judge: Sotopia renders
 * the background for the environment and hands it over whole).
 */
export type Reader = 0 | 1 | 'omniscient';

/** One reader's background. */
export interface Background {
  scenario: string;
  names: [string, string];
  /** Each character's profile as the reader sees it ('' = nothing of it). */
  bios: [string, string];
  /** Each character's goal as the reader sees it ('Unknown' for the partner in agents mode). */
  goals: [string, string];
}

const GENDER_ADJ: Record<string, string> = { Man: 'male', Woman: 'female', Nonbinary: 'nonbinary' };

/** The profile parts of Sotopia's `get_bio`, in its order. */
function bioParts(a: SotopiaAgent): {
  name: string;
  publicPart: string;
  personality: string;
  secret: string;
} {
  const adj = GENDER_ADJ[a.gender] ?? a.gender;
  return {
    name: `${a.first_name} ${a.last_name}`,
    publicPart: `, ${a.age}, ${adj}, ${a.occupation.toLowerCase()}. Pronouns: ${a.gender_pronoun}. ${a.public_info}`,
    personality: ` Personality and values: ${a.personality_and_values}`,
    secret: ` Secret: ${a.secret}`,
  };
}

/**
 * A character's profile as another character sees it at `level` (Sotopia's `get_bio`
 * rendered for the partner): a stranger nothing, `know_by_name` the name, an acquaintance
 * also age, gender, occupation, pronouns and public info, a friend, romantic partner or
 * family member also personality and values. Never the secret.
 */
export function partnerBio(a: SotopiaAgent, level: RelationshipLevel): string {
  const p = bioParts(a);
  switch (level) {
    case 'stranger':
      return '';
    case 'know_by_name':
      return p.name;
    case 'acquaintance':
      return `${p.name}${p.publicPart}`;
    default:
      return `${p.name}${p.publicPart}${p.personality}`;
  }
}

/** A character's whole profile, secret included (its own view; omniscient readers). */
export function fullBio(a: SotopiaAgent): string {
  const p = bioParts(a);
  return `${p.name}${p.publicPart}${p.personality}${p.secret}`;
}

/** The background one reader gets. */
export function backgroundFor(ep: Episode, reader: Reader): Background {
  if (reader === 'omniscient') {
    return {
      scenario: renderFor(ep.env.scenario, ['environment']),
      names: ep.names,
      bios: [fullBio(ep.agents[0]), fullBio(ep.agents[1])],
      goals: [
        renderFor(ep.env.agent_goals[0], ['environment']),
        renderFor(ep.env.agent_goals[1], ['environment']),
      ],
    };
  }
  const other = 1 - reader;
  const bios: [string, string] = ['', ''];
  const goals: [string, string] = ['Unknown', 'Unknown'];
  bios[reader] = fullBio(ep.agents[reader]);
  bios[other] = partnerBio(ep.agents[other], ep.relationship);
  goals[reader] = renderFor(ep.env.agent_goals[reader], [viewerOf(reader)]);
  return { scenario: renderFor(ep.env.scenario, [viewerOf(reader)]), names: ep.names, bios, goals };
}

/**
 * A background as text. As in Sotopia's `ScriptBackground.to_natural_language`, the two
 * profiles appear only when both are non-empty: between strangers (the partner's profile
 * empty) a character sees neither profile, only the scenario and the goals.
 */
export function backgroundText(b: Background): string {
  const [a, c] = b.names;
  const lines = ['Context of the interaction', `Scenario: ${b.scenario}`, `Participants: ${a} and ${c}`];
  if (b.bios[0] && b.bios[1])
    lines.push(`${a}'s background: ${b.bios[0]}`, `${c}'s background: ${b.bios[1]}`);
  lines.push(`${a}'s goal: ${b.goals[0]}`, `${c}'s goal: ${b.goals[1]}`);
  return lines.join('\n');
}
