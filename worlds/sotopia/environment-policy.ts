import type { Decision, Json, StepContext } from '../../src/index.ts';
import { runJudge } from './judge.ts';
import { playTurn } from './play-turn.ts';
import { askReply } from './protocols/ask.ts';
import type { ScriptLine } from './protocols/script-parser.ts';
import { type EndPayload, endMessage, type SotopiaRun, transcriptOf, turnMessages } from './run-context.ts';
import { ENV_SEAT } from './seats.ts';

/**
 * `script`: one omniscient call (caller "2") writes the whole episode; a call whose replies
 * all failed is asked again (`write-script:attemptN`) as long as the protocol allows. Each
 * turn becomes a `turn` message from seat 2 to the character who hears it (so the
 * transcript is in the log like any other), then `end` goes to seat 2 itself.
 */
async function scriptStep(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const call = run.protocol.script();
  let lines: ScriptLine[] = [];
  let attempts = 0;
  while (attempts < call.attempts && lines.length === 0) {
    attempts++;
    const purpose = attempts === 1 ? 'write-script' : `write-script:attempt${attempts}`;
    const request = {
      caller: String(ENV_SEAT),
      tick: ctx.tick,
      purpose,
      messages: call.messages,
      params: call.params,
    };
    const result = await askReply({
      llm: run.llm!,
      request,
      reading: call.reading,
      fallback: [],
      counters: run.fallbacks,
      repairPrompt: run.protocol.repairPrompt,
      repairModel: run.params.repairModel,
    });
    lines = result.value;
  }
  const { transcript, reason } = call.finish(lines);
  const messages = turnMessages(transcript);
  messages.push(endMessage({ reason, transcript }));
  const memory: Record<string, Json> = { transcript: transcript as unknown as Json };
  if (call.recordAttempts) memory.scriptAttempts = attempts;
  return { memory, messages };
}

/** `playwright`: one omniscient call (caller "2") per turn, for the character whose turn it is. */
function playwrightStep(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const transcript = transcriptOf(ctx);
  const seat = transcript.length % 2;
  return playTurn(run, {
    caller: ENV_SEAT,
    tick: ctx.tick,
    purpose: 'write-turn',
    call: run.protocol.playwrightTurn(seat, transcript),
    seat,
    transcript,
  });
}

/**
 * The environment's last step, on the `end` message: records the end reason and the
 * transcript and, when the protocol judges the episode, asks the judge (caller "judge");
 * then moves to `over`, which stops the run.
 */
async function judgeStep(run: SotopiaRun, ctx: StepContext<unknown>, end: EndPayload): Promise<Decision> {
  const memory = { endReason: end.reason, transcript: end.transcript as unknown as Json };
  const call = run.protocol.judge(end.transcript, end.reason);
  if (!call) return { events: ['END'], memory: { ...memory, judge: null } };
  const outcome = await runJudge({
    llm: run.llm!,
    tick: ctx.tick,
    call,
    counters: run.fallbacks,
    repairPrompt: run.protocol.repairPrompt,
    repairModel: run.params.repairModel,
  });
  return { events: ['END'], memory: { ...memory, judge: outcome as unknown as Json } };
}

/** Seat 2: the writer in the omniscient modes, the judge once the episode is over. */
export function environmentPolicy(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const end = ctx.inbox.toArray().find((m) => m.kind === 'end');
  if (end) return judgeStep(run, ctx, end.payload as unknown as EndPayload);
  if (run.params.mode === 'script') return scriptStep(run, ctx);
  if (run.params.mode === 'playwright') return playwrightStep(run, ctx);
  return Promise.resolve({});
}
