import { ACTION_TYPES } from '../transcript.ts';
import { pythonTitle } from './python-text.ts';

/**
 * The JSON Schemas of Sotopia's reply contract as a prompt shows them: what pydantic 1.10's
 * `Model.schema()` gives for Sotopia's models, with the top-level `title` and `type` removed
 * (LangChain's `PydanticOutputParser.get_format_instructions`). Keys keep pydantic's order:
 * a field is `title`, `description`, then its type keywords; a model `title`, `description`,
 * `type`, `properties`, `required`, `definitions`. Every description comes from the pack.
 */

/** A JSON Schema as plain data (rendered with `pythonJsonDumps`). */
export type SchemaObject = { [key: string]: SchemaValue };
type SchemaValue = string | number | boolean | null | SchemaValue[] | SchemaObject;

/** A field's `title` (pydantic's: `name.replace('_', ' ').title()`) and, when the pack gives one, its `description`. */
function head(name: string, description: string | null | undefined): SchemaObject {
  const title = pythonTitle(name.replace(/_/g, ' '));
  return description == null ? { title } : { title, description };
}

/** The reduced schema of a model: its description (the pack's, if any), properties, required. */
function reduced(description: string | null | undefined, properties: SchemaObject): SchemaObject {
  return {
    ...(description == null ? {} : { description }),
    properties,
    required: Object.keys(properties),
  };
}

/** Descriptions of the turn reply (`AgentAction`): the model's own and its two fields'. */
export interface TurnFields {
  description?: string | null;
  action_type: string;
  argument: string;
}

/** `AgentAction`: `action_type` (one of the five action types) and `argument`. */
export function turnSchema(f: TurnFields): SchemaObject {
  return reduced(f.description, turnProperties(f));
}

function turnProperties(f: TurnFields): SchemaObject {
  return {
    action_type: { ...head('action_type', f.action_type), enum: [...ACTION_TYPES], type: 'string' },
    argument: { ...head('argument', f.argument), type: 'string' },
  };
}

/** One judge dimension: its description and its score range (shown only when `ranges`). */
export interface DimensionField {
  name: string;
  description: string;
  min: number;
  max: number;
}

/**
 * `EnvResponse` / `EnvResponsePlus`: `agent_1_evaluation` and `agent_2_evaluation`, each
 * the model `model` whose fields are `[reasoning, score]` pairs, one per dimension.
 * `ranges` adds each score's `minimum` and `maximum` (Sotopia checks them in code only).
 */
export function judgeSchema(model: string, dims: readonly DimensionField[], ranges: boolean): SchemaObject {
  const properties: SchemaObject = {};
  for (const d of dims) {
    const score: SchemaObject = ranges
      ? { type: 'integer', minimum: d.min, maximum: d.max }
      : { type: 'integer' };
    properties[d.name] = {
      ...head(d.name, d.description),
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: [{ type: 'string' }, score],
    };
  }
  const ref = { $ref: `#/definitions/${model}` };
  return {
    properties: { agent_1_evaluation: ref, agent_2_evaluation: { ...ref } },
    required: ['agent_1_evaluation', 'agent_2_evaluation'],
    definitions: {
      [model]: { title: model, type: 'object', properties, required: dims.map((d) => d.name) },
    },
  };
}

/** Descriptions of a JSON script (`parsing: reask` only; Sotopia has no such reply). */
export interface ScriptFields {
  description?: string | null;
  turns: string;
  speaker: string;
}

/** A script: `turns`, each a speaker (one of the two names) with an `AgentAction`. */
export function scriptSchema(
  f: ScriptFields,
  turn: TurnFields,
  names: readonly [string, string],
): SchemaObject {
  const item = {
    type: 'object',
    properties: {
      speaker: { ...head('speaker', f.speaker), enum: [...names], type: 'string' },
      ...turnProperties(turn),
    },
    required: ['speaker', 'action_type', 'argument'],
  };
  return reduced(f.description, {
    turns: { ...head('turns', f.turns), type: 'array', minItems: 1, items: item },
  });
}
