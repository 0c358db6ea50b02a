import type { Json, StepRng } from '../core/index.ts';
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
  /**
   * The wake rate the world declares for agent `i` in its current state (0: passive), for
   * event-driven asynchronous activation; absent when the world declares none (every agent
   * then wakes at the policy's own rate). See docs/TIME.md.
   */
  stateRate?(i: number): number;
}

/** Event priorities: lower runs first at equal time. */
export const PRIORITY = { intervention: -10, tick: 0, wake: 10 } as const;

/**
 * Decides who acts when. A policy schedules events on the clock and, for the events popped
 * at a tick, returns the agents to step in their commit order.
 */
export interface TurnPolicy {
  /** The name it is registered under (a world's own policy names itself). */
  readonly name: string;
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

/**
 * A turn policy that hands out agents one at a time in continuous time, so that what one
 * step does to another agent (an encounter that infects it, mail) reaches the schedule
 * before the next agent is picked (see docs/TIME.md). The engine calls {@link nextTurn}
 * until it returns -1 for each tick, tells the policy after each step which agents may have
 * changed, and visits every tick (it never skips empty ones), as the rate-1 policy does.
 * Its state goes into snapshots.
 */
export interface EventDrivenTurnPolicy extends TurnPolicy {
  readonly eventDriven: true;
  /** The next agent to step at `tick` (its wake is due by then), or -1 when the tick has no more. */
  nextTurn(tick: number): number;
  /** Agent `i`'s state, memory or mail may have changed at the current time: reschedule it. */
  changed(i: number): void;
  /** Every agent may have changed (an intervention, tick 0): reschedule all. */
  changedAll(): void;
  /** Moves the current time to a tick boundary (`time`): mail released, interventions applied. */
  advance(time: number): void;
  /** The schedule as plain JSON, for snapshots (long columns as `Base64Text` views: write at once). */
  exportState(): Json;
  /** Restores {@link exportState}'s output, taken at tick `tick` (instead of {@link TurnPolicy.start}). */
  importState(state: Json, tick: number, ctx: TurnContext): void;
}

/** True if `p` hands out agents one at a time ({@link EventDrivenTurnPolicy}). */
export function isEventDriven(p: TurnPolicy): p is EventDrivenTurnPolicy {
  return (p as Partial<EventDrivenTurnPolicy>).eventDriven === true;
}
