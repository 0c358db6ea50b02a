import type { Address, Inbox, Message, MessageBus, OutgoingMessage } from '../bus/index.ts';
import type { Json, StepRng } from '../core/index.ts';
import { RunError } from '../core/index.ts';
import type { Topology } from '../network/topology.ts';
import type { AgentExecutor } from './agent-executor.ts';
import type { EncounterBroker } from './encounter-broker.ts';

/** What an asynchronous policy returns; applied when the engine commits, in agent order. */
export interface Decision {
  /** Events for the agent's own statechart, in order. */
  events?: string[];
  /** Memory slots to write. */
  memory?: Record<string, Json>;
  /** Messages to send. */
  messages?: OutgoingMessage[];
}

/** A committed action, as recorded in full logs. */
export interface ActionRecord {
  agent: number;
  events: string[];
  memory: Record<string, Json>;
  sent: number[];
}

/**
 * An agent's one window for one step: its own state and memory, its whole inbox, its
 * neighbourhood, and a seeded stream. Reads and writes touch only this agent. The context
 * is re-aimed for every step; an asynchronous policy must read what it needs before its
 * first `await` and return a {@link Decision} instead of writing afterwards.
 */
export class StepContext<P = unknown> {
  agent = -1;
  tick = 0;
  inbox!: Inbox;
  private open = false;
  private record: ActionRecord | null = null;
  private readonly regionIndex = new Map<string, number>();
  /** Which step of this agent in this tick (0 for the first; async activation can wake an agent twice). */
  occurrence = 0;
  /** True when a repeated step in one tick draws fresh numbers (false: the tick's draws again, as before 0.2). */
  freshRepeats = true;
  private encounters = 0;
  private broker: EncounterBroker | null = null;
  /** Set while this context answers an encounter: the agent that opened it. */
  private opener = -1;
  /** What the responder said back while answering (engine use): its kind, or null for nothing. */
  answerKind: string | null = null;
  /** The item of the answer (engine use). */
  answerItem: string | undefined = undefined;
  /** The payload of the answer (engine use). */
  answerPayload: Json | undefined = undefined;

  constructor(
    readonly params: P,
    readonly rng: StepRng,
    private readonly executor: AgentExecutor,
    private readonly bus: MessageBus,
    private topology: Topology | undefined,
    /** Record committed actions (full logs). */
    readonly recording: boolean,
  ) {
    executor.regionNames.forEach((n, i) => {
      this.regionIndex.set(n, i);
    });
  }

  /** Replaces the network (network interventions; engine use). */
  setTopology(topology: Topology): void {
    this.topology = topology;
  }

  /** Lets this context open encounters through `broker` (engine use). */
  setBroker(broker: EncounterBroker): void {
    this.broker = broker;
  }

  /** Aims the context at agent `agent` for `tick`; `occurrence` counts its earlier steps in this tick (engine use). */
  aim(agent: number, tick: number, inbox: Inbox, occurrence = 0): this {
    this.agent = agent;
    this.tick = tick;
    this.inbox = inbox;
    this.occurrence = occurrence;
    this.encounters = 0;
    this.rng.at(agent, tick, this.freshRepeats ? occurrence : 0);
    this.open = true;
    this.record = this.recording ? { agent, events: [], memory: {}, sent: [] } : null;
    return this;
  }

  /**
   * Aims this (answering) context at `responder`, answering an encounter opened by
   * `opener`; its draws come from the stream position `sub` of the opener's step (engine use).
   */
  aimAnswer(responder: number, tick: number, inbox: Inbox, opener: number, sub: number): this {
    this.agent = responder;
    this.tick = tick;
    this.inbox = inbox;
    this.rng.at(opener, tick, sub);
    this.opener = opener;
    this.answerKind = null;
    this.open = true;
    this.record = this.recording ? { agent: responder, events: [], memory: {}, sent: [] } : null;
    return this;
  }

  /** Ends an answer: what the responder said back, if anything (engine use). */
  takeAnswer(): { kind: string; item?: string; payload?: Json } | null {
    const kind = this.endAnswer();
    return kind === null ? null : { kind, item: this.answerItem, payload: this.answerPayload };
  }

  /**
   * Ends an answer without allocating: returns the answer's kind (null: nothing said); its
   * item and payload stay in {@link answerItem} and {@link answerPayload} (engine use).
   */
  endAnswer(): string | null {
    const kind = this.answerKind;
    this.answerKind = null;
    this.opener = -1;
    return kind;
  }

  /** Closes the context; returns the action record when recording (engine use). */
  close(): ActionRecord | null {
    this.open = false;
    return this.record;
  }

  private guard(): void {
    if (!this.open)
      throw new RunError(`agent ${this.agent} touched its step context after the step ended`, {
        hint: 'an async policy must return a Decision instead of writing after await',
      });
  }

  /** The name of this agent's current state in a region. */
  state(region: string): string {
    const r = this.region(region);
    return this.executor.stateNames(r)[this.executor.stateIndex(this.agent, r)];
  }

  /** True if this agent is in `state` of `region`. */
  is(region: string, state: string): boolean {
    return this.state(region) === state;
  }

  private region(name: string): number {
    const r = this.regionIndex.get(name);
    if (r === undefined)
      throw new RunError(`no region "${name}" in the agent machine`, {
        hint: `regions: ${[...this.regionIndex.keys()].join(', ')}`,
      });
    return r;
  }

  /** Index of this agent's current state in region `region` (layout numbers). */
  stateOf(region: number): number {
    return this.executor.stateIndex(this.agent, region);
  }

  /** True if this agent is in state `state` of region `region` (layout numbers). */
  in(region: number, state: number): boolean {
    return this.executor.stateIndex(this.agent, region) === state;
  }

  /** Sends an event (layout id) to this agent's statechart. Returns true if its state changed. */
  fire(event: number): boolean {
    this.guard();
    this.record?.events.push(this.executor.layout.events[event]);
    return this.executor.sendId(this.agent, event);
  }

  /** Reads numeric memory slot `k` (layout number). */
  slot(k: number): number {
    return this.executor.slot(this.agent, k);
  }

  /** Writes numeric memory slot `k` (layout number). */
  setSlot(k: number, value: number): void {
    this.guard();
    if (this.record) this.record.memory[this.executor.layout.slots[k]] = value;
    this.executor.setSlot(this.agent, k, value);
  }

  /** Sends a direct message to agent `to`. */
  tell(to: number, kind: string, item?: string, payload?: Json): void {
    this.guard();
    const id = this.bus.postTo(this.agent, this.tick, to, kind, item, payload);
    this.record?.sent.push(id);
  }

  /** Sends an event to this agent's own statechart. Returns true if its state changed. */
  emit(event: string): boolean {
    this.guard();
    this.record?.events.push(event);
    return this.executor.send(this.agent, event);
  }

  /** Reads a memory slot. */
  get(key: string): Json | undefined {
    return this.executor.getMemory(this.agent, key);
  }

  /** Reads a numeric memory slot (0 when unset). */
  num(key: string): number {
    return Number(this.executor.getMemory(this.agent, key) ?? 0);
  }

  /** Writes a memory slot. */
  set(key: string, value: Json): void {
    this.guard();
    if (this.record) this.record.memory[key] = value;
    this.executor.setMemory(this.agent, key, value);
  }

  /** Sends a message. */
  send(address: Address, kind: string, item?: string, payload?: Json): void {
    this.guard();
    const id = this.bus.post(this.agent, this.tick, { address, kind, item, payload });
    this.record?.sent.push(id);
  }

  /** Sends a prepared message (with its own latency). */
  sendMessage(out: OutgoingMessage): void {
    this.guard();
    const id = this.bus.post(this.agent, this.tick, out);
    this.record?.sent.push(id);
  }

  /** Number of neighbours. */
  degree(): number {
    return this.topology ? this.topology.degree(this.agent) : 0;
  }

  /** The k-th neighbour, ascending. */
  neighbour(k: number): number {
    return this.topology!.neighbour(this.agent, k);
  }

  /** A uniformly random neighbour from this step's stream, or -1. */
  randomNeighbour(): number {
    return this.topology ? this.topology.randomNeighbour(this.agent, this.rng) : -1;
  }

  /** A uniformly random other agent (a well-mixed population), from this step's stream. */
  randomAgent(): number {
    const n = this.executor.size;
    if (n < 2) return -1;
    const j = this.rng.int(n - 1);
    return j >= this.agent ? j + 1 : j;
  }

  /**
   * Opens an encounter with agent `partner` (e.g. {@link randomNeighbour}, {@link randomAgent}
   * or a named agent; -1 opens nothing): says `kind`/`item`/`payload`, the partner's
   * responder answers at once, and the answer (as this agent hears it) is returned, or
   * null when there is none. See docs/ENCOUNTERS.md.
   */
  encounter(partner: number, kind: string, item?: string, payload?: Json): Message | null {
    this.guard();
    if (partner < 0) return null;
    if (!this.broker || this.opener >= 0)
      throw new RunError(`agent ${this.agent} cannot open an encounter here`, {
        hint: 'encounters are opened in a step, not while answering one',
      });
    const sub = this.occurrence * 65536 + ++this.encounters;
    const reply = this.broker.open(this.agent, this.tick, sub, partner, kind, item, payload);
    this.record?.sent.push(this.broker.lastSaid);
    return reply;
  }

  /** Answers the encounter this agent is in (a responder's only way to speak back; once). */
  reply(kind: string, item?: string, payload?: Json): void {
    this.guard();
    if (this.opener < 0) throw new RunError(`agent ${this.agent} replied outside an encounter`);
    if (this.answerKind !== null)
      throw new RunError(`agent ${this.agent} answered encounter with ${this.opener} twice`, {
        hint: 'an encounter has one answer',
      });
    this.answerKind = kind;
    this.answerItem = item;
    this.answerPayload = payload;
  }

  /** True while this context answers an encounter; the agent that opened it, else -1. */
  get answering(): number {
    return this.opener;
  }

  /** Applies an asynchronous policy's decision (engine use, at commit). */
  apply(decision: Decision): void {
    for (const e of decision.events ?? []) this.emit(e);
    const memory = Object.entries(decision.memory ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
    if (memory.length > 1 && this.executor.setMemories) {
      this.guard();
      if (this.record) for (const [k, v] of memory) this.record.memory[k] = v;
      this.executor.setMemories(this.agent, memory);
    } else for (const [k, v] of memory) this.set(k, v);
    for (const m of decision.messages ?? []) this.sendMessage(m);
  }
}

/** A rule or LLM policy: decides one agent's step. Return a Decision to decide asynchronously. */
// biome-ignore lint/suspicious/noConfusingVoidType: a synchronous policy returns nothing
export type Policy<P = unknown> = (ctx: StepContext<P>) => void | Promise<Decision>;
