import {
  Base64Text,
  base64Into,
  base64ToTyped,
  ConfigError,
  type Digest,
  type Json,
  typedToBase64,
} from '../core/index.ts';
import { ActiveSet } from './active-set.ts';
import type { AgentExecutor, AgentSnapshot } from './agent-executor.ts';
import type { AgentMachine } from './agent-machine.ts';
import type { MemoryType } from './agent-machine-spec.ts';
import { compileMachine, regionsByEvent, type TransitionTable } from './compile-machine.ts';
import type { MachineLayout } from './machine-layout.ts';
import { StateHash } from './state-hash.ts';

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
  readonly layout: MachineLayout;
  readonly regionNames: readonly string[];
  private state: Uint8Array[];
  private readonly occupancy: Int32Array[];
  private readonly activeSet: ActiveSet;
  private columns: Column[];
  private readonly eventMap: Int32Array;
  /**
   * Per compiled event e, the regions it has a transition in: `eventRegions[eventRegionStart[e]
   * ..eventRegionStart[e + 1])`, ascending. An event is tried in those only, so a step does not
   * read the state column of every region (a cache line each, per agent) to learn it stays.
   */
  private readonly eventRegions: Int32Array;
  private readonly eventRegionStart: Int32Array;
  private readonly hash = new StateHash();
  /** State (region) changes so far: see {@link stateChangeCount}. */
  private stateChanges = 0;

  constructor(
    readonly agentMachine: AgentMachine,
    readonly size: number,
  ) {
    this.table = compileMachine(agentMachine.machine);
    this.layout = agentMachine.layout;
    this.regionNames = this.layout.regions;
    this.checkLayout();
    this.eventMap = Int32Array.from(this.layout.events, (e) => this.table.eventIndex.get(e) ?? -1);
    [this.eventRegions, this.eventRegionStart] = regionsByEvent(this.table);
    this.state = this.table.regions.map((r) => new Uint8Array(size).fill(r.initial));
    this.occupancy = this.table.regions.map((r) => {
      const c = new Int32Array(r.states.length);
      c[r.initial] = size;
      return c;
    });
    this.activeSet = new ActiveSet(size);
    if (this.table.regions.some((r) => r.active[r.initial] === 1)) {
      this.activeSet.fillAll();
    }
    this.columns = this.layout.slots.map((_, k) =>
      makeColumn(this.layout.slotTypes[k], size, this.layout.slotInitial[k]),
    );
  }

  private checkLayout(): void {
    const same = this.table.regions.every(
      (r, k) => r.name === this.layout.regions[k] && r.states.join() === this.layout.states[k].join(),
    );
    if (!same || this.table.regions.length !== this.layout.regions.length) {
      throw new ConfigError(`machine "${this.table.id}" does not match its layout`, {
        hint: 'build agent machines with defineAgentMachine',
      });
    }
  }

  stateNames(region: number): readonly string[] {
    return this.table.regions[region].states;
  }

  send(i: number, event: string): boolean {
    const id = this.layout.eventId(event);
    return id < 0 ? false : this.sendId(i, id);
  }

  sendId(i: number, event: number): boolean {
    const e = this.eventMap[event];
    if (e < 0) return false;
    const E = this.table.events.length;
    let changed = false;
    let activeMoved = false;
    const regions = this.table.regions;
    const list = this.eventRegions;
    for (let k = this.eventRegionStart[e], end = this.eventRegionStart[e + 1]; k < end; k++) {
      const r = list[k];
      const col = this.state[r];
      const from = col[i];
      const region = regions[r];
      const to = region.next[from * E + e];
      if (to < 0 || to === from) continue;
      col[i] = to;
      this.occupancy[r][from]--;
      this.occupancy[r][to]++;
      this.hash.change(i, r, from, to);
      changed = true;
      if (region.active[from] !== region.active[to]) activeMoved = true;
    }
    if (changed) {
      this.stateChanges = (this.stateChanges + 1) | 0; // wraps: only compared for equality
      // the active flag is the OR over regions of their states' tags: it can move only when
      // the tag of a changed region did
      if (activeMoved) this.refreshActive(i);
    }
    return changed;
  }

  /** The lifecycle is not observable from outside a synchronous step: nothing to do. */
  beginStep(_i: number): void {}

  /** See {@link ColumnarExecutor.beginStep}. */
  endStep(_i: number): void {}

  private refreshActive(i: number): void {
    let a = 0;
    const regions = this.table.regions;
    for (let r = 0; r < regions.length && a === 0; r++) a = regions[r].active[this.state[r][i]];
    this.activeSet.set(i, a);
  }

  stateIndex(i: number, region: number): number {
    return this.state[region][i];
  }

  isActive(i: number): boolean {
    return this.activeSet.flag[i] === 1;
  }

  activeCount(): number {
    return this.activeSet.count;
  }

  activeMask(): Uint8Array {
    return this.activeSet.flag;
  }

  activeAgents(): Int32Array {
    return this.activeSet.members();
  }

  /** The typed column of a memory slot, for world code that reads populations in bulk. */
  column(key: string): Column {
    return this.columns[this.layout.slot(key)];
  }

  slot(i: number, k: number): number {
    return this.columns[k][i];
  }

  setSlot(i: number, k: number, value: number): void {
    const col = this.columns[k];
    const from = col[i];
    col[i] = value + 0; // -0 -> 0: a JSON snapshot cannot hold -0
    this.hash.change(i, this.regionNames.length + k, from, col[i]);
  }

  getMemory(i: number, key: string): Json | undefined {
    const k = this.layout.slots.indexOf(key);
    return k < 0 ? undefined : this.columns[k][i];
  }

  setMemory(i: number, key: string, value: Json): void {
    const k = this.layout.slots.indexOf(key);
    if (typeof value !== 'number' || k < 0) {
      const what =
        k < 0 ? 'which the agent machine does not declare' : `a ${value === null ? 'null' : typeof value}`;
      throw new ConfigError(
        `agent ${i} wrote memory "${key}" (${what}): the columnar executor keeps the numeric slots the machine declares`,
        {
          hint: `declare it in defineAgentMachine: memory: { ${key}: { initial: 0 } } for a number, or jsonMemory: ['${key}'] for JSON (its agents then run on XState)`,
        },
      );
    }
    this.setSlot(i, k, value);
  }

  counts(region: number): Int32Array {
    return this.occupancy[region];
  }

  /** Every write of a state or slot goes through the state hash, which counts those that change a value. */
  changeCount(): number {
    return this.hash.changes;
  }

  /** Counts the events that changed a state ({@link sendId}, restores); memory writes do not move it. */
  stateChangeCount(): number {
    return this.stateChanges;
  }

  snapshot(i: number): AgentSnapshot {
    const value: Record<string, string> = {};
    this.table.regions.forEach((r, k) => {
      value[r.name] = r.states[this.state[k][i]];
    });
    const mem: Record<string, Json> = {};
    this.layout.slots.forEach((key, k) => {
      mem[key] = this.columns[k][i];
    });
    return { status: 'active', value, historyValue: {}, context: { mem }, children: {} };
  }

  restore(i: number, snapshot: AgentSnapshot): void {
    this.table.regions.forEach((r, k) => {
      const s = r.states.indexOf(snapshot.value[r.name]);
      if (s < 0)
        throw new ConfigError(
          `snapshot of agent ${i}: unknown state "${snapshot.value[r.name]}" in region "${r.name}"`,
        );
      const from = this.state[k][i];
      if (from !== s) this.stateChanges = (this.stateChanges + 1) | 0;
      this.occupancy[k][from]--;
      this.occupancy[k][s]++;
      this.state[k][i] = s;
      this.hash.change(i, k, from, s);
    });
    this.layout.slots.forEach((key, k) => {
      this.setSlot(i, k, Number(snapshot.context.mem[key] ?? this.layout.slotInitial[k]));
    });
    this.refreshActive(i);
  }

  stateHash(): string {
    return this.hash.hex();
  }

  digest(d: Digest): void {
    this.table.regions.forEach((r, k) => {
      d.text(`region:${r.name}\n`).bytes(this.state[k]);
    });
    this.layout.slots.forEach((key, k) => {
      d.text(`mem:${key}\n`).bytes(this.columns[k]);
    });
  }

  exportState(): Json {
    return this.exported((col) => typedToBase64(col));
  }

  /**
   * {@link exportState} with the columns as {@link Base64Text} views of this executor's
   * arrays: a snapshot written as a patch encodes only the parts it compares (see
   * `snapshot-patch.ts`), not every column into a fresh string. Valid until the next step.
   */
  exportStateView(): Json {
    return this.exported(
      (col) => new Base64Text(new Uint8Array(col.buffer, col.byteOffset, col.byteLength)) as unknown as Json,
    );
  }

  /** The population's state, each column (region states, then memory slots) given by `column`. */
  private exported(column: (col: Uint8Array | Int32Array | Float64Array) => Json): Json {
    return {
      kind: 'columnar',
      size: this.size,
      regions: this.state.map(column),
      columns: this.columns.map(column),
      hash: this.hash.state(),
    };
  }

  importState(json: Json): void {
    const s = json as {
      kind: string;
      size: number;
      regions: string[];
      columns: string[];
      hash: [number, number];
    };
    if (
      s.kind !== 'columnar' ||
      s.size !== this.size ||
      s.regions.length !== this.state.length ||
      s.columns.length !== this.columns.length
    ) {
      throw new ConfigError(
        'snapshot does not fit this population (executor, size, regions or memory slots differ)',
        { hint: 'restore a snapshot of the same world and parameters' },
      );
    }
    // into the arrays this executor has (same sizes when the snapshot fits): no second copy
    this.state = s.regions.map((b, r) =>
      base64Into(b, this.state[r]) ? this.state[r] : base64ToTyped(b, Uint8Array),
    );
    this.columns = s.columns.map((b, k) => {
      if (base64Into(b, this.columns[k])) return this.columns[k];
      const t = this.layout.slotTypes[k];
      return t === 'u8'
        ? base64ToTyped(b, Uint8Array)
        : t === 'i32'
          ? base64ToTyped(b, Int32Array)
          : base64ToTyped(b, Float64Array);
    });
    this.hash.restore(s.hash);
    this.occupancy.forEach((c) => {
      c.fill(0);
    });
    this.activeSet.clear();
    for (let i = 0; i < this.size; i++) {
      for (let r = 0; r < this.state.length; r++) this.occupancy[r][this.state[r][i]]++;
      this.refreshActive(i);
    }
  }

  bytesPerAgent(): number {
    let bytes = this.state.length + 1;
    for (const col of this.columns) bytes += col.BYTES_PER_ELEMENT;
    return bytes;
  }
}
