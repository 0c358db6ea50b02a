import type { Decision, StepContext } from '../../src/index.ts';
import { playTurn } from './play-turn.ts';
import { type SotopiaRun, transcriptOf } from './run-context.ts';

/**
 * A character's turn (`agents`, `mindreaders`): it takes in the partner's last turn, asks
 * the protocol for its call (built from what this seat may see only) and makes it (caller
 * = its seat). No usable reply: the turn is a recorded `none` (`fallback: true`).
 */
export function characterPolicy(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const seat = ctx.agent;
  const transcript = transcriptOf(ctx);
  return playTurn(run, {
    caller: seat,
    tick: ctx.tick,
    purpose: 'turn',
    call: run.protocol.characterTurn(seat, transcript),
    seat,
    transcript,
  });
}
