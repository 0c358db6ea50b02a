import { ConfigError } from '../core/index.ts';
import { before, type ClockEvent, type EventQueue } from './event-queue.ts';
import { PRIORITY, type TurnContext, type TurnPolicy } from './turn-policy.ts';

function hasTick(popped: readonly ClockEvent[]): boolean {
  for (const e of popped) if (e.kind === 'tick') return true;
  return false;
}

/** Everyone due acts on the same snapshot; decisions commit in agent-index order. */
export class SimultaneousPolicy implements TurnPolicy {
  readonly name = 'simultaneous' as const;
  start(queue: EventQueue): void {
    queue.push(1, 'tick', -1, PRIORITY.tick);
  }
  turns(
    tick: number,
    popped: readonly ClockEvent[],
    queue: EventQueue,
    ctx: TurnContext,
  ): number[] | Int32Array {
    if (!hasTick(popped)) return [];
    queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
    return ctx.dueAgents?.() ?? ctx.due();
  }
}

/** One agent per turn, in index order (a dialogue): agent (tick - 1) mod N acts at `tick`. */
export class RoundRobinPolicy implements TurnPolicy {
  readonly name = 'round-robin' as const;
  start(queue: EventQueue): void {
    queue.push(1, 'tick', -1, PRIORITY.tick);
  }
  turns(tick: number, popped: readonly ClockEvent[], queue: EventQueue, ctx: TurnContext): number[] {
    if (!hasTick(popped) || ctx.size === 0) return [];
    queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
    return [(tick - 1) % ctx.size];
  }
}

/** Everyone due acts, in a fresh seeded random order each tick. */
export class RandomOrderPolicy implements TurnPolicy {
  readonly name = 'random-order' as const;
  start(queue: EventQueue): void {
    queue.push(1, 'tick', -1, PRIORITY.tick);
  }
  turns(tick: number, popped: readonly ClockEvent[], queue: EventQueue, ctx: TurnContext): number[] {
    if (!hasTick(popped)) return [];
    queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
    const due = ctx.due();
    ctx.rng.at(-1, tick).shuffle(due);
    return due;
  }
}

/**
 * Asynchronous activation at one rate for everyone: each agent wakes after a seeded
 * exponential waiting time (rate per tick) whatever its state. Wakes in (tick-1, tick] are
 * stepped in (time, priority, seq) order. `async` is this policy for worlds that declare no
 * activation, and `async-uniform` for any world (what logs of earlier world versions ran).
 */
export class AsyncActivationPolicy implements TurnPolicy {
  constructor(
    readonly rate: number,
    readonly name = 'async',
  ) {
    if (!(rate > 0))
      throw new ConfigError(`async activation rate must be > 0, got ${rate}`, {
        hint: 'set e.g. rate=1 (one wake per agent per tick on average)',
      });
  }
  start(queue: EventQueue, ctx: TurnContext): void {
    for (let i = 0; i < ctx.size; i++) this.schedule(queue, ctx, i, 0, 0);
  }
  turns(tick: number, popped: readonly ClockEvent[], queue: EventQueue, ctx: TurnContext): number[] {
    const out: number[] = [];
    let k = 0;
    for (;;) {
      // merge the popped wakes with wakes rescheduled into this same tick, in queue order
      const head = queue.peek();
      const fromQueue =
        head !== undefined &&
        head.kind === 'wake' &&
        head.time <= tick &&
        (k >= popped.length || before(head, popped[k]));
      const e = fromQueue ? queue.pop()! : popped[k++];
      if (e === undefined) break;
      if (e.kind !== 'wake') continue;
      out.push(e.agent);
      this.schedule(queue, ctx, e.agent, e.time, e.n + 1);
    }
    return out;
  }
  private schedule(queue: EventQueue, ctx: TurnContext, agent: number, from: number, n: number): void {
    const wait = ctx.rng.at(agent, n).exponential(this.rate);
    queue.push(from + wait, 'wake', agent, PRIORITY.wake, n);
  }
}

/** Agents act only when envelopes arrive for them (and, at tick 1, when they start in an active state). */
export class WakeOnMessagePolicy implements TurnPolicy {
  readonly name = 'wake-on-message' as const;
  start(queue: EventQueue): void {
    queue.push(1, 'tick', -1, PRIORITY.tick);
  }
  turns(tick: number, popped: readonly ClockEvent[], queue: EventQueue, ctx: TurnContext): number[] {
    if (!hasTick(popped)) return [];
    queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
    return tick === 1 ? ctx.due() : ctx.withInbox();
  }
}
