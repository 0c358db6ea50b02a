import { formatAgeConstraint, formatAgentConstraint, formatOccupationConstraint } from './constraints.ts';
import {
  codeOf,
  type SotopiaAgent,
  type SotopiaCombo,
  type SotopiaEnvironment,
  type SotopiaRelationship,
} from './records.ts';

/**
 * Writes records back in the files' JSON shape (field order, relationship codes, constraint
 * strings, null constraints spelled `nan` / `none` as published). The only change from a
 * published row is the trimmed list items: `toRow(importedRecord)` equals the original row
 * with its list items trimmed.
 */

/** An agent as a row of `agent_profiles.jsonl`. */
export function agentToRow(a: SotopiaAgent): Record<string, unknown> {
  return {
    agent_id: a.agent_id,
    first_name: a.first_name,
    last_name: a.last_name,
    age: a.age,
    occupation: a.occupation,
    gender: a.gender,
    gender_pronoun: a.gender_pronoun,
    public_info: a.public_info,
    big_five: a.big_five,
    moral_values: [...a.moral_values],
    schwartz_personal_values: [...a.schwartz_personal_values],
    personality_and_values: a.personality_and_values,
    decision_making_style: a.decision_making_style,
    secret: a.secret,
    mbti: a.mbti,
  };
}

/** An environment as a row of `environment_profiles.jsonl`. */
export function environmentToRow(e: SotopiaEnvironment): Record<string, unknown> {
  return {
    env_id: e.env_id,
    codename: e.codename,
    source: e.source,
    scenario: e.scenario,
    agent_goals: [...e.agent_goals],
    relationship: codeOf(e.relationship),
    age_constraint: formatAgeConstraint(e.age_constraint),
    occupation_constraint: formatOccupationConstraint(e.occupation_constraint),
    agent_constraint: formatAgentConstraint(e.agent_constraint),
  };
}

/** A relationship as a row of `relationship_profiles.jsonl`. */
export function relationshipToRow(r: SotopiaRelationship): Record<string, unknown> {
  return {
    relationship_id: r.relationship_id,
    agent1_id: r.agent1_id,
    agent2_id: r.agent2_id,
    relationship: codeOf(r.relationship),
    background_story: r.background_story,
  };
}

/** A combination as a row of `env_agent_combo_storages.jsonl`. */
export function comboToRow(c: SotopiaCombo): Record<string, unknown> {
  return { combo_id: c.combo_id, env_id: c.env_id, agent_ids: [...c.agent_ids] };
}
