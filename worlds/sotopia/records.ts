import { z } from 'zod';
import {
  type AgeRange,
  parseAgeConstraint,
  parseAgentConstraint,
  parseOccupationConstraint,
} from './constraints.ts';
import { parseMarkup } from './markup.ts';

/** Sotopia's relationship levels, in the order of their codes "0".."5". */
export const RELATIONSHIP_LEVELS = [
  'stranger',
  'know_by_name',
  'acquaintance',
  'friend',
  'romantic_relationship',
  'family_member',
] as const;

/** A relationship level. */
export type RelationshipLevel = (typeof RELATIONSHIP_LEVELS)[number];

/** The level of a code "0".."5" (as in the files). */
export function levelOf(code: string): RelationshipLevel {
  const level = RELATIONSHIP_LEVELS[Number(code)];
  if (!/^[0-5]$/.test(code) || !level) throw new Error(`relationship "${code}" is not a level 0..5`);
  return level;
}

/** The code "0".."5" of a level (as in the files). */
export function codeOf(level: RelationshipLevel): string {
  return String(RELATIONSHIP_LEVELS.indexOf(level));
}

const text = z.string();
const id = z.string().min(1);
/** List items lose the stray leading (and trailing) spaces of the published files. */
const trimmedList = z.array(z.string()).transform((items) => items.map((s) => s.trim()));
const level = z.string().transform((code, ctx) => {
  try {
    return levelOf(code);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
    return z.NEVER;
  }
});

function parsed<T>(parse: (s: string) => T) {
  return z.string().transform((s, ctx) => {
    try {
      return parse(s);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });
}

/** A text with visibility markup: kept as published, but it must parse. */
const markedUp = z.string().superRefine((s, ctx) => {
  try {
    parseMarkup(s);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `bad markup: ${(e as Error).message}` });
  }
});

/** One row of `agent_profiles.jsonl`. */
export const agentRow = z.object({
  agent_id: id,
  first_name: z.string().min(1),
  last_name: text,
  age: z.number().int().min(0),
  occupation: text,
  gender: text,
  gender_pronoun: text,
  public_info: text,
  big_five: text,
  moral_values: trimmedList,
  schwartz_personal_values: trimmedList,
  personality_and_values: text,
  decision_making_style: text,
  secret: text,
  mbti: text,
});

/** One row of `environment_profiles.jsonl`. */
export const environmentRow = z.object({
  env_id: id,
  codename: z.string().min(1),
  source: text,
  scenario: markedUp,
  agent_goals: z.array(markedUp).min(2),
  relationship: level,
  age_constraint: parsed(parseAgeConstraint),
  occupation_constraint: parsed(parseOccupationConstraint),
  agent_constraint: parsed(parseAgentConstraint),
});

/** One row of `relationship_profiles.jsonl`. */
export const relationshipRow = z.object({
  relationship_id: id,
  agent1_id: id,
  agent2_id: id,
  relationship: level,
  background_story: z.string().nullable(),
});

/** One row of `env_agent_combo_storages.jsonl`. */
export const comboRow = z.object({
  combo_id: id,
  env_id: id,
  agent_ids: z.array(id).min(2),
});

/** A character (list items trimmed). */
export type SotopiaAgent = z.output<typeof agentRow>;

/**
 * A scenario. `scenario` and `agent_goals` keep their markup (see `markup.ts`: render them
 * per viewer); `relationship` is a level; constraints are parsed (null: none).
 */
export interface SotopiaEnvironment {
  env_id: string;
  codename: string;
  source: string;
  scenario: string;
  agent_goals: string[];
  relationship: RelationshipLevel;
  age_constraint: AgeRange[] | null;
  occupation_constraint: string[] | null;
  agent_constraint: string[][] | null;
}

/** A relationship between two characters. */
export type SotopiaRelationship = z.output<typeof relationshipRow>;

/** A scenario with the two characters who play it. */
export type SotopiaCombo = z.output<typeof comboRow>;

/** The four files, their row schemas, and what the importer calls their rows. */
export const SOTOPIA_FILES = {
  agents: { file: 'agent_profiles.jsonl', schema: agentRow },
  environments: { file: 'environment_profiles.jsonl', schema: environmentRow },
  relationships: { file: 'relationship_profiles.jsonl', schema: relationshipRow },
  combos: { file: 'env_agent_combo_storages.jsonl', schema: comboRow },
} as const;
