import { ConfigError, type Digest, type Json } from '../core/index.ts';
import type { AgentExecutor, AgentSnapshot } from './agent-executor.ts';
import type { AgentMachine, MemoryType } from './agent-machine.ts';
import { compileMachine, type TransitionTable } from './compile-machine.ts';

/** A typed column of numeric memory. */
export type Column = Uint8Array | Int32Array | Float64Array;

/** A typed memory column of the declared type, filled with its initial value. */
export function makeColumn(type: MemoryType, size: number, initial: number): Column {
  const col =
    type === 'u8' ? new Uint8Array(size) : type === 'i32' ? new Int32Array(size) : new Float64Array(size);
  if (initial !== 0) col.fill(initial);
  return col;
}

/**
 * The population executor: one byte of state per agent per region and one typed column per
 * memory slot, driven by the transition table compiled from the agents' XState machine.
 * No objects per agent, so a million agents cost a few megabytes.
 */
export class ColumnarExecutor implements AgentExecutor {
  readonly kind = 'columnar' as const;
  readonly table: TransitionTable;
  readonly regionNames: readonly string[];
  private readonly state: Uint8Array[];
  private readonly occupancy: Int32Array[];
  private readonly activeFlag: Uint8Array;
  private active = 0;
  private readonly memory = new Map<string, Column>();
  private readonly memoryKeys: string[];

  constructor(
    readonly agentMachine: AgentMachine,
    readonly size: number,
  ) {
    this.table = compileMachine(agentMachine.machine);
    this.regionNames = this.table.regions.map((r) => r.name);
    this.state = this.table.regions.map((r) => new Uint8Array(size).fill(r.initial));
    this.occupancy = this.table.regions.map((r) => {
      const c = new Int32Array(r.states.length);
      c[r.initial] = size;
      return c;
    });
    this.activeFlag = new Uint8Array(size);
    const initiallyActive = this.table.regions.some((r) => r.active[r.initial] === 1);
    if (initiallyActive) {
      this.activeFlag.fill(1);
      this.active = size;
    }
    this.memoryKeys = Object.keys(agentMachine.spec.memory ?? {}).sort();
    for (const key of this.memoryKeys) {
      const slot = agentMachine.spec.memory![key];
      this.memory.set(key, makeColumn(slot.type ?? 'f64', size, slot.initial));
    }
  }

  stateNames(region: number): readonly string[] {
    return this.table.regions[region].states;
  }

  send(i: number, event: string): boolean {
    const e = this.table.eventIndex.get(event);
    if (e === undefined) return false;
    const E = this.table.events.length;
    let changed = false;
    const regions = this.table.regions;
    for (let r = 0; r < regions.length; r++) {
      const col = this.state[r];
      const from = col[i];
      const to = regions[r].next[from * E + e];
      if (to < 0 || to === from) continue;
      col[i] = to;
      this.occupancy[r][from]--;
      this.occupancy[r][to]++;
      changed = true;
    }
    if (changed) this.refreshActive(i);
    return changed;
  }

  private refreshActive(i: number): void {
    let a = 0;
    const regions = this.table.regions;
    for (let r = 0; r < regions.length && a === 0; r++) a = regions[r].active[this.state[r][i]];
    if (a !== this.activeFlag[i]) {
      this.activeFlag[i] = a;
      this.active += a ? 1 : -1;
    }
  }

  stateIndex(i: number, region: number): number {
    return this.state[region][i];
  }

  isActive(i: number): boolean {
    return this.activeFlag[i] === 1;
  }

  activeCount(): number {
    return this.active;
  }

  /** The typed column of a memory slot, for world code that reads populations in bulk. */
  column(key: string): Column {
    const col = this.memory.get(key);
    if (!col)
      throw new ConfigError(`unknown memory slot "${key}"`, {
        hint: `declared slots: ${this.memoryKeys.join(', ')}`,
      });
    return col;
  }

  getMemory(i: number, key: string): Json | undefined {
    return this.memory.get(key)?.[i];
  }

  setMemory(i: number, key: string, value: Json): void {
    if (typeof value !== 'number') {
      throw new ConfigError(`columnar agents keep numeric memory only; "${key}" got ${typeof value}`, {
        hint: 'store numbers, or run these agents with executor "xstate"',
      });
    }
    this.column(key)[i] = value;
  }

  counts(region: number): Int32Array {
    return this.occupancy[region];
  }

  snapshot(i: number): AgentSnapshot {
    const value: Record<string, string> = {};
    this.table.regions.forEach((r, k) => {
      value[r.name] = r.states[this.state[k][i]];
    });
    const mem: Record<string, Json> = {};
    for (const key of this.memoryKeys) mem[key] = this.memory.get(key)![i];
    return { status: 'active', value, historyValue: {}, context: { mem }, children: {} };
  }

  restore(i: number, snapshot: AgentSnapshot): void {
    this.table.regions.forEach((r, k) => {
      const s = r.states.indexOf(snapshot.value[r.name]);
      if (s < 0)
        throw new ConfigError(
          `snapshot of agent ${i}: unknown state "${snapshot.value[r.name]}" in region "${r.name}"`,
        );
      this.occupancy[k][this.state[k][i]]--;
      this.occupancy[k][s]++;
      this.state[k][i] = s;
    });
    for (const key of this.memoryKeys) this.setMemory(i, key, snapshot.context.mem[key] ?? 0);
    this.refreshActive(i);
  }

  digest(d: Digest): void {
    this.table.regions.forEach((r, k) => {
      d.text(`region:${r.name}\n`).bytes(this.state[k]);
    });
    for (const key of this.memoryKeys) d.text(`mem:${key}\n`).bytes(this.memory.get(key)!);
  }

  bytesPerAgent(): number {
    let bytes = this.state.length + 1;
    for (const col of this.memory.values()) bytes += col.BYTES_PER_ELEMENT;
    return bytes;
  }
}
