import {
  type ActionRecord,
  type AgentExecutor,
  ColumnarExecutor,
  type Decision,
  EncounterBroker,
  type ExecutorKind,
  StepContext,
  XStateExecutor,
} from '../agent/index.ts';
import { MessageBus } from '../bus/index.ts';
import {
  AgentSorter,
  type EventDrivenTurnPolicy,
  EventQueue,
  type EventQueueState,
  isEventDriven,
  type TurnContext,
  type TurnPolicy,
  TurnPolicyRegistry,
} from '../clock/index.ts';
import { ConfigError, Digest, type Json, LogFormatError, RngStreams, RunError } from '../core/index.ts';
import { type EdgeEdit, OverlayTopology } from '../network/index.ts';
import { declaredRates } from './activation.ts';
import type { WorldDefinition, WorldInstance } from './define-world.ts';
import { DeliveryLog } from './delivery-log.ts';
import { DueScratch, dueAgents, dueList } from './due-list.ts';
import type { InputBuffer } from './input-buffer.ts';
import type { EngineIntervention, Intervention } from './intervention.ts';
import { LlmSchemaTable } from './llm-schema-table.ts';
import { resolveParams } from './resolve-params.ts';
import type { LogLevel, RunLog } from './run-log.ts';
import { WorldControl, type WorldView } from './world-view.ts';

/** A complete, plain-JSON picture of a run at a tick boundary: restoring it and running on reproduces the run. */
export interface EngineState {
  tick: number;
  steps: number;
  deliveries: number;
  history: Record<string, number>[];
  params: Record<string, unknown>;
  /** `encounter` only once reseeded (otherwise derived from the run seed). */
  rngKeys: { agent: number; turns: number; encounter?: number };
  executor: Json;
  bus: Json;
  queue: EventQueueState;
  network: EdgeEdit[] | null;
  world: Json | null;
  /** Ids of the LLM schemas written to the log so far (format 2; absent when none). */
  schemas?: string[];
  /** The wake schedule of an event-driven turn policy (`async` following state; absent otherwise). */
  schedule?: Json;
}

/** What the engine reports at the end. */
export interface EngineResult {
  ticks: number;
  reason: string;
  events: number;
  digest: string;
  metrics: Record<string, number>;
  summary: Record<string, Json>;
  steps: number;
  deliveries: number;
}

/** How the engine is driven, beyond the world itself. */
export interface EngineHooks {
  /** Called after each tick; a returned promise is awaited (the CLI yields there to see signals). */
  onTick?: (tick: number, maxTicks: number, view: WorldView) => unknown;
  shouldStop?: (tick: number) => string | null;
  /** Interventions to apply right after the given tick's end (recorded as `intervene` events). */
  interventionsAt?: (tick: number) => readonly Intervention[];
  /** Write a snapshot every this many ticks (0 = only at the end). */
  snapshotEvery?: number;
}

function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = obj[k];
  return out;
}

/** The tick loop of one run (see docs/ARCHITECTURE.md, "The tick"). */
export class Engine {
  private readonly executor: AgentExecutor;
  private readonly bus: MessageBus;
  private readonly control: WorldControl;
  private readonly ctx: StepContext<unknown>;
  private readonly answerCtx: StepContext<unknown>;
  private readonly broker: EncounterBroker;
  private readonly seedEncounterKey: number;
  /**
   * Per agent, side by side (one cache line, not two): at 2i the last tick it stepped at, at
   * 2i + 1 how many steps it took in it before the last (async activation).
   */
  private readonly lastStep: Int32Array;
  private readonly turnPolicy: TurnPolicy;
  /** The turn policy when it hands out agents one at a time (continuous time), else null. */
  private readonly wakes: EventDrivenTurnPolicy | null;
  /** The world's rates read neighbours: a changed agent's neighbours are rescheduled too. */
  private readonly neighbourRates: boolean;
  private readonly turnCtx: TurnContext;
  private queue = new EventQueue();
  private history: Record<string, number>[] = [];
  private steps = 0;
  private deliveries = 0;
  private tick = 0;
  private overlay: OverlayTopology | null = null;
  /**
   * The state of the periodic snapshot written at the end of this tick, while nothing has
   * changed since (no intervention): the final snapshot of a run that stops right there is
   * the same state, so it is not exported twice.
   */
  private snapshotAtTick: { tick: number; state: EngineState } | null = null;
  private readonly unsubscribe: () => void;
  /** Schemas of `llm` lines written once (log format 2); null for format 1. */
  private readonly schemas: LlmSchemaTable | null;

  constructor(
    private readonly def: WorldDefinition,
    private readonly world: WorldInstance<unknown>,
    private readonly params: Record<string, unknown>,
    rng: RngStreams,
    level: LogLevel,
    private readonly log: RunLog,
    private readonly inputs: InputBuffer,
    /** Parameter names the log records (a run of an older world version: fewer than `params`). */
    private readonly recordedKeys?: readonly string[],
    /** Full logs only: list each send's addressees and every withheld delivery (header `addressees`). */
    addressees = false,
    /** The executor chosen for the run (`runWorld` chooses; default: the world's declared one, else XState). */
    executorKind: ExecutorKind = world.executor ?? 'xstate',
  ) {
    const size = world.size;
    this.executor =
      executorKind === 'columnar'
        ? new ColumnarExecutor(world.agents, size)
        : new XStateExecutor(world.agents, size);
    // A rerun or continuation of an older log writes what its format did: format 1 digests
    // JSON memory in full and keeps schemas inside the llm lines; format 2 hashes each memory
    // entry whole (format 3 hashes a heard line's content once for all its hearers).
    const format1 = log.format === 'grapevine-log/1';
    if (this.executor instanceof XStateExecutor && format1) this.executor.useDigestScheme('full');
    if (this.executor instanceof XStateExecutor && log.format === 'grapevine-log/2')
      this.executor.useDigestScheme('additive');
    this.schemas = format1 ? null : new LlmSchemaTable();
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
    this.ctx.freshRepeats = world.freshRepeats ?? true;
    this.answerCtx = new StepContext(
      params,
      rng.stepRng('encounter'),
      this.executor,
      this.bus,
      world.network,
      level === 'full',
    );
    this.seedEncounterKey = this.answerCtx.rng.purposeKey;
    this.broker = new EncounterBroker(this.bus, this.answerCtx, world.respond, def.id);
    this.ctx.setBroker(this.broker);
    this.lastStep = new Int32Array(2 * size);
    for (let i = 0; i < 2 * size; i += 2) this.lastStep[i] = -1;
    const stateRate = world.activation
      ? declaredRates(world.activation, this.executor, world.agents, this.control)
      : undefined;
    this.turnPolicy =
      typeof world.turnPolicy === 'string'
        ? new TurnPolicyRegistry(def.turnPolicies).create(world.turnPolicy, {
            byState: stateRate !== undefined,
          })
        : world.turnPolicy;
    this.wakes = isEventDriven(this.turnPolicy) ? this.turnPolicy : null;
    this.neighbourRates = world.activation?.neighbours === true;
    if (this.wakes) {
      this.broker.answered = (j) => this.rescheduled(j, true);
      const executor: AgentExecutor = this.executor;
      // a rate read from states alone (`rates`, or the machine's active tags) moves only when
      // a state does: a responder whose answer wrote memory only keeps its wake
      const byState = !world.activation?.rate && executor.stateChangeCount;
      if (byState) this.broker.changeCount = () => executor.stateChangeCount!();
      else if (executor.changeCount) this.broker.changeCount = () => executor.changeCount!();
    }
    const inbox = this.bus.inboxCounts();
    const active = this.executor.activeMask();
    const sorter = new AgentSorter();
    const scratch = new DueScratch();
    this.turnCtx = {
      size,
      hasInbox: (i) => this.bus.hasInbox(i),
      isDue: (i) => inbox[i] > 0 || active[i] === 1,
      rng: rng.stepRng('turns'),
      due: () => dueList(inbox, active, this.executor.activeAgents(), this.bus.recipients(), sorter, scratch),
      dueAgents: () =>
        dueAgents(inbox, active, this.executor.activeAgents(), this.bus.recipients(), sorter, scratch),
      withInbox: () => Array.from(this.bus.recipients()),
      ...(stateRate ? { stateRate } : {}),
    };
    const deliveries = level === 'full' ? new DeliveryLog(log, this.bus, addressees) : undefined;
    const sub = deliveries ? this.bus.events$.subscribe((e) => deliveries.write(e)) : undefined;
    this.unsubscribe = () => sub?.unsubscribe();
  }

  /** Read access for tools. */
  get view(): WorldView {
    return this.control;
  }

  /** Sets up tick 0 (the world's initial state) and logs it. */
  start(hooks: EngineHooks): void {
    this.world.init?.(this.control);
    // an event-driven policy schedules from the initial state before tick 0's interventions,
    // which then reschedule the agents they change
    this.wakes?.start(this.queue, this.turnCtx);
    this.endTick(0, hooks);
    if (!this.wakes) this.turnPolicy.start(this.queue, this.turnCtx);
  }

  /** Runs ticks until a stop condition, then writes the end. */
  async run(maxTicks: number, hooks: EngineHooks): Promise<EngineResult> {
    // also after a restore: a run restored at the tick its world stopped at (a fork or resume at
    // the last tick) ends there, as the recorded run did
    let reason = this.world.stop?.(this.control) ?? null;
    while (reason === null) {
      const next = this.queue.peek();
      if (!next && !this.wakes) {
        reason = 'quiescent';
        break;
      }
      // an event-driven policy visits every tick, as rate-1 activation does
      const t = next ? Math.max(this.tick + 1, Math.ceil(next.time)) : this.tick + 1;
      if (t > maxTicks) {
        reason = 'max-ticks';
        break;
      }
      this.tick = t;
      this.snapshotAtTick = null; // not held while another tick runs
      const popped = this.queue.popUntil(t);
      this.bus.release(t);
      if (this.wakes) await this.stepWakes(t, this.wakes);
      else await this.stepAll(t, this.turnPolicy.turns(t, popped, this.queue, this.turnCtx));
      this.endTick(t, hooks);
      await hooks.onTick?.(t, maxTicks, this.control);
      reason = this.world.stop?.(this.control) ?? hooks.shouldStop?.(t) ?? null;
    }
    return this.finish(reason);
  }

  private async stepAll(tick: number, turns: readonly number[] | Int32Array): Promise<void> {
    this.control.tick = tick;
    this.control.stepped = turns.length;
    // Once an asynchronous decision appears, later steps are logged after it, so that act
    // lines stay in commit order (the turn order) whatever finishes first.
    const deferred: { i: number; record: ActionRecord | null; decision?: Promise<Decision> }[] = [];
    const ctx = this.ctx;
    const heardBefore = this.broker.delivered;
    // indexed: stepAll runs unoptimised for its first ticks, where for-of makes an iterator
    // result per agent
    for (let t = 0; t < turns.length; t++) {
      const i = turns[t];
      const out = this.stepStart(i, tick);
      if (out instanceof Promise) deferred.push({ i, record: ctx.close(), decision: out });
      else if (deferred.length === 0) this.commit(i);
      else {
        deferred.push({ i, record: ctx.close() });
        this.executor.endStep(i);
      }
    }
    this.steps += turns.length;
    this.deliveries += this.broker.delivered - heardBefore;
    if (deferred.length === 0) return;
    const decisions = deferred.filter((d) => d.decision).map((d) => d.decision!);
    const decided = await Promise.allSettled(decisions);
    // The first failure in commit order ends the run before anything of this tick is logged.
    for (const d of decided)
      if (d.status === 'rejected')
        throw d.reason instanceof Error ? d.reason : new RunError(String(d.reason));
    for (const input of this.inputs.drain()) this.logInput(input.type, tick, input.fields);
    const emptyInbox = this.bus.emptyInbox();
    let k = 0;
    for (const d of deferred) {
      if (!d.decision) {
        this.logAct(d.i, d.record);
        continue;
      }
      ctx.aim(d.i, tick, emptyInbox).apply((decided[k++] as PromiseFulfilledResult<Decision>).value);
      this.commit(d.i, d.record);
    }
  }

  /** Starts agent `i`'s step at `tick`: its whole inbox, its policy (up to a first `await`). */
  private stepStart(i: number, tick: number): ReturnType<WorldInstance<unknown>['policy']> {
    this.executor.beginStep(i);
    const inbox = this.bus.take(i);
    this.deliveries += inbox.length;
    const last = this.lastStep;
    const occurrence = last[2 * i] === tick ? ++last[2 * i + 1] : 0;
    if (occurrence === 0) {
      last[2 * i] = tick;
      last[2 * i + 1] = 0;
    }
    return this.world.policy(this.ctx.aim(i, tick, inbox, occurrence));
  }

  /**
   * Steps the agents an event-driven policy hands out at `tick`, one at a time in wake order:
   * each step (an asynchronous decision included) is committed, and the agents it changed
   * rescheduled, before the next agent is picked. Mail released at `tick` is read at wakes in
   * (tick − 1, tick], as under rate-1 activation.
   */
  private async stepWakes(tick: number, wakes: EventDrivenTurnPolicy): Promise<void> {
    this.control.tick = tick;
    wakes.advance(tick - 1);
    for (const i of this.bus.recipients()) wakes.changed(i);
    const heardBefore = this.broker.delivered;
    let stepped = 0;
    for (let i = wakes.nextTurn(tick); i >= 0; i = wakes.nextTurn(tick)) {
      stepped++;
      const changes = this.neighbourRates ? this.executor.changeCount?.() : undefined;
      const out = this.stepStart(i, tick);
      if (out instanceof Promise) await this.commitLate(i, tick, out);
      else this.commit(i);
      this.rescheduled(i, changes === undefined || this.executor.changeCount!() !== changes);
    }
    this.control.stepped = stepped;
    this.steps += stepped;
    this.deliveries += this.broker.delivered - heardBefore;
  }

  /**
   * Asks the event-driven policy for agent `i`'s rate again; when the world's rates read
   * neighbours (`activation.neighbours`) and `i` changed, its neighbours' rates too (in the
   * network as it is now, edits included).
   */
  private rescheduled(i: number, changed: boolean): void {
    const wakes = this.wakes!;
    wakes.changed(i);
    const net = this.neighbourRates && changed ? this.control.network : undefined;
    if (!net) return;
    for (let k = 0, d = net.degree(i); k < d; k++) wakes.changed(net.neighbour(i, k));
  }

  /** Commits agent `i`'s asynchronous decision as soon as it is made (event-driven policies). */
  private async commitLate(i: number, tick: number, decision: Promise<Decision>): Promise<void> {
    const early = this.ctx.close();
    let decided: Decision;
    try {
      decided = await decision;
    } catch (err) {
      throw err instanceof Error ? err : new RunError(String(err));
    }
    for (const input of this.inputs.drain()) this.logInput(input.type, tick, input.fields);
    this.ctx.aim(i, tick, this.bus.emptyInbox()).apply(decided);
    this.commit(i, early);
  }

  /** Ends agent `i`'s step; `early` is what an async policy did before its first await. */
  private commit(i: number, early: ActionRecord | null = null): void {
    const late = this.ctx.close();
    this.executor.endStep(i);
    this.logAct(
      i,
      early && late
        ? {
            agent: i,
            events: [...early.events, ...late.events],
            memory: { ...early.memory, ...late.memory },
            sent: [...early.sent, ...late.sent],
          }
        : late,
    );
  }

  /** Appends an input; in log format 2 an `llm` record's schema goes to the schema table. */
  private logInput(type: string, tick: number, fields: Record<string, unknown>): void {
    if (type !== 'llm' || !this.schemas) {
      this.log.append(type, tick, fields);
      return;
    }
    const split = this.schemas.split(fields);
    if (split.schema) this.log.append('schema', tick, { ...split.schema });
    this.log.append(type, tick, split.fields);
  }

  private logAct(i: number, record: ActionRecord | null): void {
    if (record)
      this.log.append('act', this.ctx.tick, {
        agent: i,
        events: record.events,
        memory: record.memory,
        sent: record.sent,
      });
  }

  private endTick(tick: number, hooks: EngineHooks): void {
    this.control.tick = tick;
    const metrics = this.world.metrics?.(this.control, this.history[this.history.length - 1]) ?? {};
    this.history.push(metrics);
    this.log.append('tick', tick, {
      state: this.executor.stateHash(),
      stepped: this.control.stepped,
      pending: this.bus.pendingCount,
      metrics,
    });
    const every = hooks.snapshotEvery ?? 0;
    if (every > 0 && tick > 0 && tick % every === 0) {
      const state = this.exportState();
      this.log.append('snapshot', tick, { state: state as unknown as Json });
      this.snapshotAtTick = { tick, state };
    }
    for (const iv of hooks.interventionsAt?.(tick) ?? []) this.intervene(iv);
    this.log.flush();
  }

  private finish(reason: string): EngineResult {
    const summary = this.world.summary?.(this.history, this.control) ?? {};
    const metrics = this.history[this.history.length - 1] ?? {};
    const d = new Digest();
    this.executor.digest(d);
    const kept = this.snapshotAtTick?.tick === this.tick ? this.snapshotAtTick.state : null;
    this.snapshotAtTick = null;
    this.log.append('snapshot', this.tick, { state: (kept ?? this.exportState()) as unknown as Json });
    this.log.append('end', this.tick, {
      finalState: d.hex(),
      reason,
      ticks: this.tick,
      steps: this.steps,
      deliveries: this.deliveries,
      summary,
    });
    const events = this.log.seq;
    const digest = this.log.close();
    return {
      ticks: this.tick,
      reason,
      events,
      digest,
      metrics,
      summary,
      steps: this.steps,
      deliveries: this.deliveries,
    };
  }

  /** Applies an intervention now (between ticks) and records it. */
  intervene(iv: Intervention): void {
    this.snapshotAtTick = null;
    this.log.append('intervene', this.tick, { intervention: iv as unknown as Json });
    try {
      this.applyIntervention(iv);
      // anything may have changed (states, parameters, the network): every rate is asked again
      this.wakes?.advance(this.tick);
      this.wakes?.changedAll();
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      // A bad target (agent, channel, edge) is bad input, not a failed run.
      throw new ConfigError(
        `intervention ${JSON.stringify(iv).slice(0, 120)} cannot be applied at tick ${this.tick}: ${(err as Error).message}`,
        { cause: err, hint: 'fix the intervention file (see docs/INTERVENTIONS.md)' },
      );
    }
  }

  private applyIntervention(iv: Intervention): void {
    const e = iv as EngineIntervention;
    switch (e.type) {
      case 'message': {
        if (e.from !== -1) this.checkAgent(e.from);
        const to =
          e.to === 'all'
            ? ({ to: 'all' } as const)
            : 'agent' in e.to
              ? ({ to: 'agent', id: e.to.agent } as const)
              : ({ to: 'channel', channel: e.to.channel } as const);
        this.bus.send(e.from, this.tick, {
          address: to,
          kind: e.kind,
          item: e.item,
          payload: e.payload as Json | undefined,
        });
        return;
      }
      case 'agent':
        this.checkAgent(e.agent);
        for (const ev of e.events) {
          if (this.executor.layout.eventId(ev) < 0)
            throw new ConfigError(`no state of the agent machine handles event "${ev}"`, {
              hint: `events: ${this.executor.layout.events.join(', ')}`,
            });
          this.executor.send(e.agent, ev);
        }
        for (const [k, v] of Object.entries(e.memory)) this.executor.setMemory(e.agent, k, v as Json);
        for (const k of e.forget) this.executor.setMemory(e.agent, k, null);
        return;
      case 'network':
        this.editNetwork(
          e.add
            .map(([i, j]) => ['add', i, j] as EdgeEdit)
            .concat(e.remove.map(([i, j]) => ['remove', i, j] as EdgeEdit)),
          e.isolate,
        );
        return;
      case 'params':
        Object.assign(this.params, resolveParams(this.def, { ...this.params, ...e.set }));
        return;
      case 'reseed': {
        const fresh = new RngStreams(e.seed);
        this.ctx.rng.rekey(fresh.stepRng('agent').purposeKey);
        this.turnCtx.rng.rekey(fresh.stepRng('turns').purposeKey);
        this.answerCtx.rng.rekey(fresh.stepRng('encounter').purposeKey);
        return;
      }
      default:
        if (!this.world.intervene?.(iv as { type: string; [key: string]: Json }, this.control)) {
          throw new ConfigError(`unknown intervention type "${iv.type}" for world "${this.def.id}"`, {
            hint: 'engine types: message, agent, network, params, reseed',
          });
        }
    }
  }

  private checkAgent(i: number): void {
    if (i >= this.world.size)
      throw new ConfigError(`intervention names agent ${i}, but the population is 0..${this.world.size - 1}`);
  }

  private editNetwork(edits: EdgeEdit[], isolate: readonly number[]): void {
    if (!this.world.network) throw new ConfigError(`world "${this.def.id}" has no network to edit`);
    if (!this.overlay) {
      this.overlay = new OverlayTopology(this.world.network);
      this.bus.setTopology(this.overlay);
      this.ctx.setTopology(this.overlay);
      this.answerCtx.setTopology(this.overlay);
      this.control.network = this.overlay;
    }
    for (const edit of edits) this.overlay.apply(edit);
    for (const i of isolate) this.overlay.isolate(i);
  }

  /**
   * The run's state at this tick boundary, as JSON whose long columns (executor and bus) are
   * `Base64Text` views of the live arrays: valid until the next tick or intervention, so
   * write it (or copy it, e.g. through `canonicalJson`) at once.
   */
  exportState(): EngineState {
    return {
      tick: this.tick,
      steps: this.steps,
      deliveries: this.deliveries,
      history: this.history,
      params: this.recordedKeys ? pick(this.params, this.recordedKeys) : { ...this.params },
      rngKeys: this.rngKeys(),
      executor: this.executor.exportStateView?.() ?? this.executor.exportState(),
      bus: this.bus.exportStateView(),
      queue: this.queue.state(),
      network: this.overlay ? this.overlay.edits() : null,
      world: this.world.getState?.() ?? null,
      ...(this.schemas?.state().length ? { schemas: this.schemas.state() } : {}),
      ...(this.wakes ? { schedule: this.wakes.exportState() } : {}),
    };
  }

  private rngKeys(): EngineState['rngKeys'] {
    const keys: EngineState['rngKeys'] = {
      agent: this.ctx.rng.purposeKey,
      turns: this.turnCtx.rng.purposeKey,
    };
    const e = this.answerCtx.rng.purposeKey;
    if (e !== this.seedEncounterKey) keys.encounter = e;
    return keys;
  }

  /** Restores a state taken by {@link Engine.exportState} (instead of {@link Engine.start}). */
  importState(s: EngineState): void {
    this.tick = s.tick;
    this.steps = s.steps;
    this.deliveries = s.deliveries;
    this.history = s.history.map((m) => ({ ...m }));
    Object.assign(this.params, s.params);
    this.ctx.rng.rekey(s.rngKeys.agent);
    this.turnCtx.rng.rekey(s.rngKeys.turns);
    this.answerCtx.rng.rekey(s.rngKeys.encounter ?? this.seedEncounterKey);
    this.executor.importState(s.executor);
    this.bus.importState(s.bus);
    this.queue = EventQueue.restore(s.queue);
    if (s.network?.length) this.editNetwork(s.network, []);
    if (s.world !== null) this.world.setState?.(s.world);
    this.schemas?.restore(s.schemas ?? []);
    this.control.tick = s.tick;
    if (this.wakes) {
      if (s.schedule === undefined)
        throw new LogFormatError(
          'the snapshot has no wake schedule, but this run activates agents by state (async)',
          {},
          { hint: 'the log was written by another version of the world or engine; rerun it from its header' },
        );
      this.wakes.importState(s.schedule, s.tick, this.turnCtx);
    }
  }

  dispose(): void {
    this.unsubscribe();
    this.bus.close();
  }
}
