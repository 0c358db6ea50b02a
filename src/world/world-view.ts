import { type AgentExecutor, type Column, ColumnarExecutor } from '../agent/index.ts';
import type { MessageBus, OutgoingMessage } from '../bus/index.ts';
import type { Json } from '../core/index.ts';
import type { Topology } from '../network/topology.ts';

/** Read access to the whole world, for metrics, stop conditions and summaries (never for agents). */
export class WorldView {
  tick = 0;
  /** Agents stepped in the current tick. */
  stepped = 0;
  private readonly regionIndex = new Map<string, number>();

  constructor(
    readonly size: number,
    readonly executor: AgentExecutor,
    readonly bus: MessageBus,
    public network: Topology | undefined,
  ) {
    executor.regionNames.forEach((n, i) => {
      this.regionIndex.set(n, i);
    });
  }

  /** Index of a region by name. */
  region(name: string): number {
    const r = this.regionIndex.get(name);
    if (r === undefined) throw new Error(`no region "${name}"`);
    return r;
  }

  /** How many agents are in `state` of `region`. */
  count(region: string, state: string): number {
    const r = this.region(region);
    const s = this.executor.stateNames(r).indexOf(state);
    return s < 0 ? 0 : this.executor.counts(r)[s];
  }

  /** Name of agent `i`'s state in a region. */
  stateOf(i: number, region: string): string {
    const r = this.region(region);
    return this.executor.stateNames(r)[this.executor.stateIndex(i, r)];
  }

  /**
   * Agent-ordered values of a numeric memory slot: the live column on the columnar
   * executor, a fresh copy otherwise. Read-only.
   */
  memoryColumn(key: string): Column {
    if (this.executor instanceof ColumnarExecutor) return this.executor.column(key);
    const out = new Float64Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = Number(this.executor.getMemory(i, key) ?? 0);
    return out;
  }

  /** Envelopes in flight. */
  pending(): number {
    return this.bus.pendingCount;
  }
}

/** What `init` may do at tick 0: set agents' states and memory, send first messages. */
export class WorldControl extends WorldView {
  /** Sends an event to agent `i`'s statechart. */
  emit(i: number, event: string): void {
    this.executor.send(i, event);
  }

  /** Writes agent `i`'s memory slot. */
  set(i: number, key: string, value: Json): void {
    this.executor.setMemory(i, key, value);
  }

  /** Sends a message at tick 0 from agent `from` (-1 = the world). */
  send(from: number, out: OutgoingMessage): void {
    this.bus.send(from, 0, out);
  }
}
