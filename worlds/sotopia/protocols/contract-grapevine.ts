import { z } from 'zod';
import { DIMENSION_NAMES, DIMENSIONS } from '../dimensions.ts';
import { judgeReplySchema } from '../judge-reply.ts';
import { ACTION_TYPES, turnReplySchema } from '../transcript.ts';
import { type Asked, dimensionText, type ReplyContract } from './contract.ts';
import { fillTemplate } from './fill.ts';
import type { Pack } from './pack.ts';
import { parsePydanticJson } from './pydantic-json.ts';
import { mapReading, type Reading, wireSchema } from './reading.ts';

/**
 * The reply contract of world versions 2.0 and 2.1 (`contract: grapevine`): a turn is
 * `{action, argument}`, the judge's reply `{agent0, agent1}` with `{reasoning, score}` per
 * dimension. Its format words are fixed (`contract-grapevine.json`) so that its logs replay.
 */

const fill = (text: string, values: Record<string, string>) => fillTemplate(text, values, false);

/** `parsing: sotopia`'s format of a JSON reply: the reply's JSON Schema (zod's) in the pack's wrapper. */
function schemaFormat(pack: Pack, schema: z.ZodType): string {
  return fill(pack.text['format-json'], { schema: JSON.stringify(wireSchema(schema)) });
}

function actions(pack: Pack): string {
  return ACTION_TYPES.join(pack.pieces['action-list-separator']);
}

function sotopiaReading<T>(schema: z.ZodType<T>, name: string, format: string): Reading<T> {
  return {
    schema,
    name,
    sotopia: {
      parse: (text) => parsePydanticJson(text, schema),
      repair: { template: 'repair-json', format },
    },
  };
}

/** The judge's instructions: which object is whose, then one line per dimension. */
function judgeInstructions(pack: Pack, names: readonly [string, string], rubric: 'basic' | 'plus'): string {
  const dims = DIMENSION_NAMES.map((d) =>
    fill(pack.legacy['judge-dimension'], {
      dimension: d,
      min: String(DIMENSIONS[d].min),
      max: String(DIMENSIONS[d].max),
      description: dimensionText(pack, fill, d, rubric),
    }),
  );
  return fill(pack.legacy['judge-json'], {
    name_1: names[0],
    name_2: names[1],
    dimensions: dims.join(pack.legacy['judge-dimension-separator']),
  });
}

/** The zhou2024 JSON script: at least one turn, no upper bound (the length is asked, never enforced). */
export function zhouScriptSchema(names: readonly [string, string]) {
  return z.object({
    turns: z
      .array(z.object({ speaker: z.enum(names), action: z.enum(ACTION_TYPES), argument: z.string() }))
      .min(1),
  });
}

/** The `grapevine` reply contract. */
export const grapevineContract: ReplyContract = {
  name: 'grapevine',
  rendering: {
    escapes: false,
    keepWhitespace: false,
    cleanContext: false,
    trimTurnLines: true,
    textualNone: false,
  },
  turn(pack, parsing) {
    if (parsing === 'reask') {
      const format = fill(pack.legacy['turn-json'], { actions: actions(pack) });
      return { format, reading: { schema: turnReplySchema, name: 'sotopia_action' } };
    }
    const format = schemaFormat(pack, turnReplySchema);
    return { format, reading: sotopiaReading(turnReplySchema, 'sotopia_action', format) };
  },
  judge(pack, names, rubric, parsing) {
    const instructions = judgeInstructions(pack, names, rubric);
    if (parsing === 'reask')
      return { format: instructions, reading: { schema: judgeReplySchema, name: 'sotopia_eval' } };
    const format = fill(pack.legacy['judge-with-schema'], {
      instructions,
      schema_format: schemaFormat(pack, judgeReplySchema),
    });
    return { format, reading: sotopiaReading(judgeReplySchema, 'sotopia_eval', format) };
  },
  scriptJson(pack, names): Asked<import('./script-parser.ts').ScriptLine[]> {
    const format = fill(pack.legacy['script-json'], {
      name_1: names[0],
      name_2: names[1],
      actions: actions(pack),
    });
    const reading = mapReading({ schema: zhouScriptSchema(names), name: 'sotopia_script' }, (v) =>
      v.turns.map((t) => ({ name: t.speaker, action: t.action, argument: t.argument })),
    );
    return { format, reading };
  },
};
