import type { FallbackCounter, LlmPort } from '../../src/public/llm.ts';
import { type JudgeOutcome, type JudgeReply, toScores } from './judge-reply.ts';
import { askReply, type RepairPrompt } from './protocols/ask.ts';
import type { JudgeCall } from './protocols/protocol.ts';
import type { Reading } from './protocols/reading.ts';
import { JUDGE_CALLER } from './seats.ts';

/** Inputs of {@link runJudge}: the protocol's judge call and how it is made. */
export interface JudgeRun {
  llm: LlmPort;
  tick: number;
  call: JudgeCall;
  counters?: FallbackCounter;
  repairPrompt: RepairPrompt;
  repairModel: string;
}

/**
 * The judge's call (caller "judge", purpose `judge`, then `judge:attemptN`), read as the
 * protocol's reading says; with `attempts` > 1 a judgement that failed is asked again from
 * the start (every attempt recorded); after the last, the outcome is a recorded fallback
 * (`fallback: true`, `scores: null`, the errors kept).
 */
export async function runJudge(j: JudgeRun): Promise<JudgeOutcome> {
  const { call } = j;
  const errors: string[] = [];
  for (let k = 1; ; k++) {
    const request = {
      caller: JUDGE_CALLER,
      tick: j.tick,
      purpose: k === 1 ? 'judge' : `judge:attempt${k}`,
      messages: call.messages,
      params: call.params,
    };
    const result = await askReply<JudgeReply | null>({
      llm: j.llm,
      request,
      reading: call.reading as Reading<JudgeReply | null>,
      fallback: null,
      counters: j.counters,
      repairPrompt: j.repairPrompt,
      repairModel: j.repairModel,
    });
    errors.push(...result.errors);
    const done = result.value !== null;
    if (done || k >= call.attempts) {
      const scores = done ? toScores(result.value as JudgeReply) : null;
      const outcome: JudgeOutcome = { model: call.params.model, fallback: scores === null, errors, scores };
      return call.attempts > 1 ? { ...outcome, attempts: k } : outcome;
    }
  }
}
