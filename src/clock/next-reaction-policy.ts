import {
  type Base64Like,
  Base64Text,
  base64Into,
  base64ToTyped,
  ConfigError,
  type Json,
  LogFormatError,
  typedToBase64,
} from '../core/index.ts';
import type { EventQueue } from './event-queue.ts';
import type { EventDrivenTurnPolicy, TurnContext } from './turn-policy.ts';
import { WakeQueue } from './wake-queue.ts';

/** Snapshot form of the schedule, base64 columns. */
interface ScheduleState {
  kind: 'next-reaction';
  /** Int32: the scheduled agents, ascending. */
  agents: string;
  /** Float64, one per scheduled agent: its wake time. */
  wake: string;
  /** Float64, one per scheduled agent: the rate its wake was drawn or rescaled for. */
  rate: string;
  /** Int32 per agent: how many waiting times have been drawn for it. */
  draws: string;
}

/**
 * Asynchronous activation that follows state (docs/TIME.md): agent i wakes at the rate its
 * world declares for its current state (`TurnContext.stateRate`), or at the policy's rate
 * when the world declares none; a passive agent (rate 0) is not scheduled at all, unless it
 * has mail, which it reads at the policy's rate, as it would under rate-1 activation.
 * Gibson & Bruck's next-reaction method (J. Phys. Chem. A 104:1876, 2000): one wake time
 * per scheduled agent in an indexed priority queue (a calendar queue, `WakeQueue`); when an agent's rate changes from a to b > 0 at
 * time t its wake w moves to t + (a/b)(w − t); when it becomes positive a fresh waiting time
 * is drawn; after each wake the next one is drawn. Draw k of agent i is `rng.at(i, k)`: a
 * function of the agent and its own count only, never of the queue's internals.
 */
export class NextReactionPolicy implements EventDrivenTurnPolicy {
  readonly name = 'async';
  readonly eventDriven = true as const;
  /** The scheduled agents, with the rate of each wake and each agent's draw count. */
  private queue = new WakeQueue(0);
  private ctx: TurnContext | null = null;
  private now = 0;
  /** The agent being stepped: its spent wake stays first in the queue until it is rescheduled. */
  private current = -1;

  constructor(readonly rate = 1) {
    if (!(rate > 0 && Number.isFinite(rate)))
      throw new ConfigError(`async activation rate must be a finite number > 0, got ${rate}`, {
        hint: 'set e.g. rate=1 (one wake per agent per tick on average)',
      });
  }

  /** Number of agents with a wake scheduled. */
  get scheduled(): number {
    return this.queue.size;
  }

  start(_queue: EventQueue, ctx: TurnContext): void {
    this.bind(ctx);
    this.now = 0;
    this.changedAll();
  }

  /** Event-driven: the engine asks {@link nextTurn} instead. */
  turns(): number[] {
    return [];
  }

  nextTurn(tick: number): number {
    if (this.current >= 0) this.changed(this.current);
    const queue = this.queue;
    const first = queue.top();
    if (first < 0 || !(queue.time(first) <= tick)) return -1;
    this.now = queue.time(first);
    this.current = first;
    return first;
  }

  advance(time: number): void {
    this.now = time;
  }

  changed(i: number): void {
    const r = this.rateOf(i);
    const queue = this.queue;
    if (i === this.current) {
      // its wake was spent: the next one is a fresh draw (re-keying it in place
      // costs one move, where a removal and an insert would cost two)
      this.current = -1;
      if (r === 0) queue.remove(i);
      else queue.set(i, this.now + this.draw(i, r), r);
      return;
    }
    if (r === 0) {
      queue.remove(i); // nothing when it has no wake: no rate to read
      return;
    }
    const old = queue.rate(i);
    if (r === old) return;
    if (old === 0) queue.set(i, this.now + this.draw(i, r), r);
    else queue.set(i, this.now + (old / r) * (queue.time(i) - this.now), r);
  }

  private draw(i: number, rate: number): number {
    return this.ctx!.rng.at(i, this.queue.nextDraw(i)).exponential(rate);
  }

  changedAll(): void {
    for (let i = 0; i < this.queue.capacity; i++) this.changed(i);
  }

  private rateOf(i: number): number {
    const ctx = this.ctx!;
    const s = ctx.stateRate ? ctx.stateRate(i) : this.rate;
    if (s > 0 && s < Number.POSITIVE_INFINITY) return s;
    if (s !== 0)
      throw new ConfigError(`the wake rate of agent ${i} is ${s}: a rate must be a finite number ≥ 0`, {
        hint: "fix the world's activation (rates per state, or its rate function)",
      });
    return ctx.hasInbox(i) ? this.rate : 0;
  }

  private bind(ctx: TurnContext): void {
    this.ctx = ctx;
    if (this.queue.capacity === ctx.size) return;
    this.queue = new WakeQueue(ctx.size);
  }

  exportState(): Json {
    const m = this.queue.size;
    const agents = new Int32Array(m);
    const wake = new Float64Array(m);
    const rate = new Float64Array(m);
    for (let i = 0, k = 0; k < m; i++) {
      if (!this.queue.has(i)) continue;
      agents[k] = i;
      wake[k] = this.queue.time(i);
      rate[k++] = this.queue.rate(i);
    }
    const draws = new Int32Array(this.queue.capacity);
    for (let i = 0; i < draws.length; i++) draws[i] = this.queue.draws(i);
    const state: ScheduleState = {
      kind: 'next-reaction',
      agents: typedToBase64(agents),
      wake: typedToBase64(wake),
      rate: typedToBase64(rate),
      draws: new Base64Text(new Uint8Array(draws.buffer)) as unknown as string,
    };
    return state as unknown as Json;
  }

  importState(json: Json, tick: number, ctx: TurnContext): void {
    this.bind(ctx);
    const s = (json ?? {}) as Partial<Record<keyof ScheduleState, unknown>>;
    const texts = [s.agents, s.wake, s.rate, s.draws];
    const draws = new Int32Array(ctx.size);
    // bounded before decoding: at most one entry of 8 bytes per agent
    const fits =
      s.kind === 'next-reaction' &&
      texts.every(
        (t) =>
          (typeof t === 'string' || t instanceof Base64Text) && t.length <= 4 * Math.ceil((8 * ctx.size) / 3),
      ) &&
      base64Into(s.draws as Base64Like, draws);
    if (!fits) throw badSchedule(`it is not a schedule of ${ctx.size} agents`);
    const agents = base64ToTyped(s.agents as Base64Like, Int32Array);
    const wake = base64ToTyped(s.wake as Base64Like, Float64Array);
    const rate = base64ToTyped(s.rate as Base64Like, Float64Array);
    if (wake.length !== agents.length || rate.length !== agents.length)
      throw badSchedule(`${agents.length} agents, ${wake.length} wake times and ${rate.length} rates`);
    this.queue.clear();
    this.current = -1;
    for (let k = 0; k < agents.length; k++)
      this.restoreWake(agents[k], k > 0 ? agents[k - 1] : -1, wake[k], rate[k], tick);
    for (let i = 0; i < ctx.size; i++) {
      if (draws[i] < 0) throw badSchedule(`agent ${i} has ${draws[i]} draws`);
      this.queue.setDraws(i, draws[i]);
    }
    this.now = tick;
  }

  private restoreWake(i: number, previous: number, wake: number, rate: number, tick: number): void {
    if (!(i > previous && i < this.queue.capacity)) throw badSchedule(`agent ${i} is out of order or range`);
    if (!(rate > 0 && rate < Number.POSITIVE_INFINITY)) throw badSchedule(`agent ${i} has rate ${rate}`);
    if (!(wake >= tick && wake < Number.POSITIVE_INFINITY))
      throw badSchedule(`agent ${i} wakes at ${wake}, before tick ${tick}`);
    this.queue.set(i, wake, rate);
  }
}

function badSchedule(why: string): LogFormatError {
  return new LogFormatError(
    `the snapshot's turn schedule cannot be restored: ${why}`,
    {},
    { hint: 'the log was damaged or edited; rerun the run from its header instead' },
  );
}
