import { z } from 'zod';
import type { LlmParams } from '../../../src/public/llm.ts';
import type { Episode } from '../episode.ts';
import { judgeReplySchema } from '../judge-reply.ts';
import type { SotopiaParams } from '../params.ts';
import {
  ACTION_TYPES,
  type ActionType,
  cutScript,
  type EndReason,
  endReason,
  type TurnRecord,
  turnRecord,
  turnReplySchema,
} from '../transcript.ts';
import { environmentView, seatView, writerView } from '../views.ts';
import { agentPrompt, judgePrompt, playwrightPrompt, scriptPrompt } from './grapevine-v0-prompts.ts';
import type { SotopiaProtocol } from './protocol.ts';
import { mapReading } from './reading.ts';

/** The grapevine-v0 `script` reply: the whole episode as 2..maxTurns turns, each by one of the two characters. */
export function scriptReplySchema(names: readonly [string, string], maxTurns: number) {
  return z.object({
    turns: z
      .array(z.object({ speaker: z.enum(names), action: z.enum(ACTION_TYPES), argument: z.string() }))
      .min(Math.min(2, maxTurns))
      .max(maxTurns),
  });
}

/** A script's turns as turn records, cut where a played episode would end. */
export function scriptTranscript(
  names: readonly [string, string],
  turns: readonly { name: string; action: ActionType; argument: string }[],
  maxTurns: number,
  maxIdle: number,
): { transcript: TurnRecord[]; reason: EndReason } {
  const records = turns.map((t, k) => {
    const seat = names.indexOf(t.name);
    return turnRecord(k + 1, seat, names[seat], { action: t.action, argument: t.argument }, false);
  });
  return cutScript(records, maxTurns, maxIdle);
}

/**
 * grapevine-v0, the world's first protocol (world 1.x; its logs replay with it): its own
 * prompts (`grapevine-v0-prompts.ts`), JSON replies re-asked twice, views by relationship
 * level with Big Five and MBTI fields, scripts cut at `maxTurns`, a one-line-per-dimension
 * judge. It reads no template pack.
 */
export function grapevineV0Protocol(
  episode: Episode,
  params: SotopiaParams,
  model: string,
  seed: number,
): SotopiaProtocol {
  const views = [seatView(episode, 0, params.mode), seatView(episode, 1, params.mode)];
  const writer = writerView(episode);
  const llmParams: LlmParams = { model, temperature: params.temperature, seed };
  const judgeParams: LlmParams = { model: params.judgeModel || model, temperature: 0, seed };
  const turnReading = { schema: turnReplySchema, name: 'sotopia_action' };
  const { maxTurns, maxIdle } = params;
  return {
    name: 'grapevine-v0',
    characterTurn: (seat, transcript) => ({
      messages: agentPrompt(views[seat], transcript, transcript.length + 1, maxTurns),
      params: llmParams,
      reading: turnReading,
    }),
    playwrightTurn: (seat, transcript) => ({
      messages: playwrightPrompt(writer, transcript, transcript.length + 1, seat, maxTurns),
      params: llmParams,
      reading: turnReading,
    }),
    script: () => ({
      messages: scriptPrompt(writer, maxTurns),
      params: llmParams,
      reading: mapReading(
        { schema: scriptReplySchema(episode.names, maxTurns), name: 'sotopia_script' },
        (v) => v.turns.map((t) => ({ name: t.speaker, action: t.action, argument: t.argument })),
      ),
      attempts: 1,
      recordAttempts: false,
      finish: (lines) =>
        lines.length === 0
          ? { transcript: [], reason: 'no-script' }
          : scriptTranscript(episode.names, lines, maxTurns, maxIdle),
    }),
    judge: (transcript, reason) =>
      params.judge
        ? {
            messages: judgePrompt(environmentView(episode), transcript, reason),
            params: judgeParams,
            reading: { schema: judgeReplySchema, name: 'sotopia_eval' },
            attempts: 1,
          }
        : null,
    endReason: (transcript) => endReason(transcript, maxTurns, maxIdle),
    repairPrompt: () => {
      throw new Error('grapevine-v0 re-asks invalid replies; it has no repair prompt');
    },
    inputs: {},
    summaryFields: () => ({}),
  };
}
