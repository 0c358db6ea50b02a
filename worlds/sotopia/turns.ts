import {
  type ClockEvent,
  type EventQueue,
  PRIORITY,
  type TurnContext,
  type TurnPolicy,
} from '../../src/index.ts';
import { ENV_SEAT } from './seats.ts';

/**
 * Round-robin between the two characters (seat (tick - 1) mod 2 acts at `tick`), or, in the
 * writer modes, the writer (seat 2) every tick. Whoever ends the episode sends an `end`
 * message to seat 2, so at the next tick seat 2 has mail: it alone acts (the judge step)
 * and no further tick is scheduled. The policy keeps no state.
 */
export class DyadTurnPolicy implements TurnPolicy {
  readonly name = 'dyad';

  constructor(private readonly writer: boolean) {}

  start(queue: EventQueue): void {
    queue.push(1, 'tick', -1, PRIORITY.tick);
  }

  turns(tick: number, popped: readonly ClockEvent[], queue: EventQueue, ctx: TurnContext): number[] {
    if (!popped.some((e) => e.kind === 'tick')) return [];
    if (ctx.hasInbox(ENV_SEAT)) return [ENV_SEAT];
    queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
    return [this.writer ? ENV_SEAT : (tick - 1) % 2];
  }
}
