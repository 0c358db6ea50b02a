import { z } from 'zod';
import { DIMENSION_NAMES } from './dimensions.ts';

/**
 * One message of an EpisodeLog turn: `[sender, receiver, text]`, where text is Sotopia's
 * natural-language rendering (`said: "…"`, `did nothing`, `[action] …`, `left the conversation`).
 */
const messageSchema = z.tuple([z.string(), z.string(), z.string()]);

/**
 * One agent's reward: the overall score and the per-dimension scores (the seven Sotopia-EVAL
 * dimensions and `overall_score`), or a bare number when the evaluation failed.
 */
const rewardSchema = z.union([
  z.number(),
  z.tuple([
    z.number(),
    z.record(z.string(), z.number()).refine((d) => DIMENSION_NAMES.every((k) => typeof d[k] === 'number'), {
      message: `per-dimension rewards need ${DIMENSION_NAMES.join(', ')}`,
    }),
  ]),
]);

/**
 * Sotopia's `EpisodeLog` as serialised to JSON (sotopia-lab/sotopia, tag
 * agent_vs_storyteller_v1, sotopia/database/logs.py): the environment's pk, the agents'
 * pks, the tag, the models (`[environment/judge, agent1, agent2]`), the messages by turn,
 * the judge's reasoning, one reward per agent and the judge's prompt. Sotopia's own
 * validator checks that there is one reward per agent; grapevine also needs exactly two
 * agents. Other fields (`pk`) are allowed and ignored.
 */
export const episodeLogSchema = z
  .object({
    environment: z.string().min(1),
    agents: z.array(z.string()).length(2, 'a report needs exactly two agents'),
    tag: z.string().nullable().optional(),
    models: z.array(z.string()).nullable().optional(),
    messages: z.array(z.array(messageSchema)),
    reasoning: z.string(),
    rewards: z.array(rewardSchema),
    rewards_prompt: z.string(),
  })
  .refine((e) => e.rewards.length === e.agents.length, {
    message: 'one reward per agent is needed',
    path: ['rewards'],
  });

/** A valid EpisodeLog record. */
export type EpisodeLog = z.infer<typeof episodeLogSchema>;
