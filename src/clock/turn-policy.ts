import type { StepRng } from '../core/index.ts';
import type { ClockEvent, EventQueue } from './event-queue.ts';

/** What a turn policy may ask about the world when it picks who acts. */
export interface TurnContext {
  /** Population size. */
  readonly size: number;
  /** True if agent `i` has envelopes waiting this tick. */
  hasInbox(i: number): boolean;
  /** True if agent `i` has envelopes or is in a state that acts every turn. */
  isDue(i: number): boolean;
  /**
   * Agents with envelopes or in an active state, ascending. The engine refills the same
   * array at every call (no allocation per tick): use it within this call of `turns`, or copy it.
   */
  due(): number[];
  /**
   * {@link due} as a typed array, for a policy that steps the agents as they are: a view the
   * engine refills at every call (valid within this call of `turns`). Optional: a context
   * without it is asked for {@link due}.
   */
  dueAgents?(): Int32Array;
  /** Agents with envelopes, ascending. */
  withInbox(): number[];
  /** A counter-based stream for scheduling draws (turn order, waiting times). */
  readonly rng: StepRng;
}

/** Names of the built-in turn policies. */
export type TurnPolicyName = 'simultaneous' | 'round-robin' | 'random-order' | 'async' | 'wake-on-message';

/** Event priorities: lower runs first at equal time. */
export const PRIORITY = { intervention: -10, tick: 0, wake: 10 } as const;

/**
 * Decides who acts when. A policy schedules events on the clock and, for the events popped
 * at a tick, returns the agents to step in their commit order.
 */
export interface TurnPolicy {
  readonly name: TurnPolicyName;
  /** Schedules the first events (the first tick is 1; tick 0 is the initial state). */
  start(queue: EventQueue, ctx: TurnContext): void;
  /**
   * The agents to step at `tick`, in commit order, given the events popped for it;
   * schedules the follow-up events.
   */
  turns(
    tick: number,
    popped: readonly ClockEvent[],
    queue: EventQueue,
    ctx: TurnContext,
  ): readonly number[] | Int32Array;
}
