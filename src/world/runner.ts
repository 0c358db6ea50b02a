import {
  type AgentExecutor,
  COMMIT,
  ColumnarExecutor,
  type Decision,
  OBSERVE,
  StepContext,
  XStateExecutor,
} from '../agent/index.ts';
import { type BusEvent, MessageBus } from '../bus/index.ts';
import { createTurnPolicy, EventQueue, type TurnContext, type TurnPolicy } from '../clock/index.ts';
import { ConfigError, Digest, type Json, RngStreams, RunError } from '../core/index.ts';
import type { LlmPort } from '../llm/port.ts';
import type { WorldDefinition, WorldInstance } from './define-world.ts';
import { InputBuffer } from './input-buffer.ts';
import { resolveParams } from './resolve-params.ts';
import type { LogLevel, RunLog } from './run-log.ts';
import { WorldControl, type WorldView } from './world-view.ts';

/** Engine version recorded in every log header. */
export const ENGINE_VERSION = '0.1.0';

/** How to run a world. */
export interface RunOptions {
  params?: Record<string, unknown>;
  seed?: number;
  /** Maximum ticks (default: the world's `defaultTicks`, else 1000). */
  ticks?: number;
  level?: LogLevel;
  /** Where the world came from, recorded so that `replay` can find it again. */
  source?: Record<string, Json>;
  /** Opens the log once the header is known. */
  openLog?: (header: Record<string, unknown>) => RunLog;
  /** Called after every tick (progress bars). */
  onTick?: (tick: number, maxTicks: number, view: WorldView) => void;
  /** The LLM handed to worlds that need one (already wrapped by a recorder feeding `inputs`). */
  llm?: LlmPort;
  /** LLM model and endpoint description (no key), recorded in the header. */
  llmInfo?: { model: string; [key: string]: Json };
  /** Counter for fallback decisions, handed to the world. */
  fallbacks?: { fallbacks: number };
  /** Inputs from outside (LLM calls) to write to the log at each tick's commit. */
  inputs?: InputBuffer;
  /** Checked at every tick boundary: a reason to stop (e.g. budget exhausted), or null. */
  shouldStop?: (tick: number) => string | null;
  /** Called once the world is built, before tick 0 (tools subscribe to the bus here). */
  onStart?: (view: WorldView) => void;
}

/** What a run reports. */
export interface RunResult {
  world: string;
  seed: number;
  ticks: number;
  events: number;
  digest: string;
  reason: string;
  metrics: Record<string, number>;
  summary: Record<string, Json>;
  steps: number;
  deliveries: number;
  size: number;
}

/** Builds the header of a run's log (everything needed to rerun it, but the wall clock). */
export function runHeader(
  def: WorldDefinition,
  params: Record<string, unknown>,
  seed: number,
  maxTicks: number,
  opts: RunOptions,
): Record<string, unknown> {
  return {
    engine: ENGINE_VERSION,
    world: { id: def.id, version: def.version, source: opts.source ?? { kind: 'builtin' } },
    params,
    seed,
    ticks: maxTicks,
    level: opts.level ?? 'minimal',
    ...(opts.llmInfo ? { llm: opts.llmInfo } : {}),
  };
}

/** Agents with mail or in an active state, ascending. */
function dueList(inbox: Int32Array, active: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < active.length; i++) if (active[i] === 1 || inbox[i] > 0) out.push(i);
  return out;
}

class NullLog implements RunLog {
  seq = 0;
  append(): number {
    return ++this.seq;
  }
  flush(): void {}
  close(): string {
    return '';
  }
}

/** Runs a world to its end and returns its summary. */
export async function runWorld(def: WorldDefinition, opts: RunOptions = {}): Promise<RunResult> {
  const seed = opts.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RunError(`seed must be an integer, got ${seed}`);
  const params = resolveParams(def, opts.params ?? {});
  const maxTicks = opts.ticks ?? def.defaultTicks ?? 1000;
  const rng = new RngStreams(seed);
  if (def.needsLlm && !opts.llm) {
    throw new ConfigError(`world "${def.id}" needs an LLM`, {
      hint: 'run it with the grapevine CLI (which starts the local server) or pass an llm port',
    });
  }
  const instance = def.create({
    params,
    seed,
    rng,
    llm: opts.llm,
    model: opts.llmInfo?.model,
    fallbacks: opts.fallbacks,
  }) as WorldInstance<unknown>;
  const header = {
    ...runHeader(def, params, seed, maxTicks, opts),
    size: instance.size,
    ...(instance.inputs ? { inputs: instance.inputs } : {}),
  };
  const log = opts.openLog ? opts.openLog(header) : new NullLog();
  const engine = new Engine(
    def,
    instance,
    params,
    rng,
    opts.level ?? 'minimal',
    log,
    opts.inputs ?? new InputBuffer(),
  );
  try {
    opts.onStart?.(engine.view);
    return await engine.run(seed, maxTicks, opts.onTick, opts.shouldStop);
  } finally {
    engine.dispose();
  }
}

class Engine {
  private readonly executor: AgentExecutor;
  private readonly bus: MessageBus;
  private readonly control: WorldControl;
  private readonly ctx: StepContext<unknown>;
  private readonly turnPolicy: TurnPolicy;
  private readonly queue = new EventQueue();
  private readonly history: Record<string, number>[] = [];
  private steps = 0;
  private deliveries = 0;
  private readonly unsubscribe: () => void;

  /** Read access for tools. */
  get view(): WorldView {
    return this.control;
  }

  constructor(
    private readonly def: WorldDefinition,
    private readonly world: WorldInstance<unknown>,
    params: Record<string, unknown>,
    private readonly rng: RngStreams,
    level: LogLevel,
    private readonly log: RunLog,
    private readonly inputs: InputBuffer,
  ) {
    const size = world.size;
    this.executor =
      world.executor === 'columnar'
        ? new ColumnarExecutor(world.agents, size)
        : new XStateExecutor(world.agents, size);
    this.bus = new MessageBus({
      size,
      topology: world.network,
      latency: world.latency,
      visibility: world.visibility,
    });
    for (const [name, members] of Object.entries(world.channels ?? {})) this.bus.defineChannel(name, members);
    this.control = new WorldControl(size, this.executor, this.bus, world.network);
    this.ctx = new StepContext(
      params,
      rng.stepRng('agent'),
      this.executor,
      this.bus,
      world.network,
      level === 'full',
    );
    this.turnPolicy =
      typeof world.turnPolicy === 'string' ? createTurnPolicy(world.turnPolicy) : world.turnPolicy;
    const sub = level === 'full' ? this.bus.events$.subscribe((e) => this.logBusEvent(e)) : undefined;
    this.unsubscribe = () => sub?.unsubscribe();
  }

  private logBusEvent(e: BusEvent): void {
    if (e.type === 'sent') {
      const m = e.message;
      this.log.append('send', e.tick, {
        id: m.id,
        from: m.from,
        route: m.route,
        channel: m.channel,
        kind: m.kind,
        item: m.item,
        payload: m.payload,
        deliverAt: m.deliverAt,
        recipients: e.recipients,
      });
    } else {
      this.log.append('observe', e.tick, { agent: e.agent, msgs: e.messages.map((m) => m.id) });
    }
  }

  async run(
    seed: number,
    maxTicks: number,
    onTick?: RunOptions['onTick'],
    shouldStop?: RunOptions['shouldStop'],
  ): Promise<RunResult> {
    const bus = this.bus;
    const inbox = bus.inboxCounts();
    const active = this.executor.activeMask();
    const turnCtx: TurnContext = {
      size: this.world.size,
      hasInbox: (i) => inbox[i] > 0,
      isDue: (i) => inbox[i] > 0 || active[i] === 1,
      rng: this.rng.stepRng('turns'),
      due: () => dueList(inbox, active),
      withInbox: () => Array.from(bus.recipients()),
    };
    this.world.init?.(this.control);
    this.endTick(0);
    let reason = this.world.stop?.(this.control) ?? null;
    this.turnPolicy.start(this.queue, turnCtx);
    let tick = 0;
    while (reason === null) {
      const next = this.queue.peek();
      if (!next) {
        reason = 'quiescent';
        break;
      }
      const t = Math.max(tick + 1, Math.ceil(next.time));
      if (t > maxTicks) {
        reason = 'max-ticks';
        break;
      }
      tick = t;
      const popped = this.queue.popUntil(tick);
      bus.release(tick);
      await this.stepAll(tick, this.turnPolicy.turns(tick, popped, this.queue, turnCtx));
      this.endTick(tick);
      onTick?.(tick, maxTicks, this.control);
      reason = this.world.stop?.(this.control) ?? shouldStop?.(tick) ?? null;
    }
    return this.finish(seed, tick, reason);
  }

  private async stepAll(tick: number, turns: readonly number[]): Promise<void> {
    this.control.tick = tick;
    this.control.stepped = turns.length;
    const asyncDecisions: [number, Promise<Decision>][] = [];
    const ex = this.executor;
    const ctx = this.ctx;
    for (const i of turns) {
      ex.beginStep(i);
      const inbox = this.bus.take(i);
      this.deliveries += inbox.length;
      const out = this.world.policy(ctx.aim(i, tick, inbox));
      if (out instanceof Promise) {
        ctx.close();
        asyncDecisions.push([i, out]);
        continue;
      }
      this.commit(i);
    }
    this.steps += turns.length;
    if (asyncDecisions.length === 0) return;
    const decided = await Promise.allSettled(asyncDecisions.map(([, p]) => p));
    // The first failure in commit order ends the run before anything of this tick is logged.
    for (const d of decided)
      if (d.status === 'rejected')
        throw d.reason instanceof Error ? d.reason : new RunError(String(d.reason));
    for (const input of this.inputs.drain()) this.log.append(input.type, tick, input.fields);
    const emptyInbox = this.bus.emptyInbox();
    asyncDecisions.forEach(([i], k) => {
      ctx.aim(i, tick, emptyInbox).apply((decided[k] as PromiseFulfilledResult<Decision>).value);
      this.commit(i);
    });
  }

  private commit(i: number): void {
    const record = this.ctx.close();
    this.executor.endStep(i);
    if (record)
      this.log.append('act', this.ctx.tick, {
        agent: i,
        events: record.events,
        memory: record.memory,
        sent: record.sent,
      });
  }

  private endTick(tick: number): void {
    this.control.tick = tick;
    const metrics = this.world.metrics?.(this.control, this.history[this.history.length - 1]) ?? {};
    this.history.push(metrics);
    this.log.append('tick', tick, {
      state: this.executor.stateHash(),
      stepped: this.control.stepped,
      pending: this.bus.pendingCount,
      metrics,
    });
    this.log.flush();
  }

  private finish(seed: number, tick: number, reason: string): RunResult {
    const summary = this.world.summary?.(this.history, this.control) ?? {};
    const metrics = this.history[this.history.length - 1] ?? {};
    const d = new Digest();
    this.executor.digest(d);
    this.log.append('end', tick, {
      finalState: d.hex(),
      reason,
      ticks: tick,
      steps: this.steps,
      deliveries: this.deliveries,
      summary,
    });
    const events = this.log.seq;
    const digest = this.log.close();
    return {
      world: this.def.id,
      seed,
      ticks: tick,
      events,
      digest,
      reason,
      metrics,
      summary,
      steps: this.steps,
      deliveries: this.deliveries,
      size: this.world.size,
    };
  }

  dispose(): void {
    this.unsubscribe();
    this.bus.close();
  }
}
