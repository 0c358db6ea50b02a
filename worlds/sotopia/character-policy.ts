import type { Decision, StepContext } from '../../src/index.ts';
import { decideStructured } from '../../src/llm/structured-reply.ts';
import { agentPrompt } from './prompts.ts';
import { afterTurn, type SotopiaRun, transcriptOf } from './run-context.ts';
import { NO_ACTION, turnRecord, turnReplySchema } from './transcript.ts';

/**
 * A character's turn (`agents`, `mindreaders`): synchronously it takes in the partner's
 * last turn and builds its prompt from its own view only (`run.views[seat]`) and the
 * transcript it has heard; then one LLM call (caller = its seat) for `{action, argument}`.
 * An invalid reply is re-asked twice, then the turn is a recorded `none` (`fallback: true`).
 */
export function characterPolicy(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const seat = ctx.agent;
  const transcript = transcriptOf(ctx);
  const turn = transcript.length + 1;
  const request = {
    caller: String(seat),
    tick: ctx.tick,
    purpose: 'turn',
    messages: agentPrompt(run.views[seat], transcript, turn, run.params.maxTurns),
    params: run.llmParams,
  };
  const llm = run.llm!;
  return (async () => {
    const result = await decideStructured(llm, request, turnReplySchema, {
      fallback: NO_ACTION,
      counters: run.fallbacks,
      name: 'sotopia_action',
    });
    const record = turnRecord(turn, seat, run.episode.names[seat], result.value, result.fallback);
    return afterTurn(run, seat, [...transcript, record]);
  })();
}
