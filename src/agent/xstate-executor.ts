import { type AnyActor, createActor } from 'xstate';
import { ConfigError, canonicalJson, type Digest, type Json } from '../core/index.ts';
import type { AgentExecutor, AgentSnapshot } from './agent-executor.ts';
import { type AgentMachine, LIFE_REGION, MEMORY_EVENT } from './agent-machine.ts';
import { makeColumn } from './columnar-executor.ts';

/**
 * One XState v5 actor per agent, with full statechart semantics. Actors are hydrated
 * lazily: an agent that never acted costs nothing until it is touched, and a snapshot
 * restores an actor from plain JSON.
 */
export class XStateExecutor implements AgentExecutor {
  readonly kind = 'xstate' as const;
  readonly regionNames: readonly string[];
  private readonly actors: (AnyActor | undefined)[];
  private readonly states: string[][];
  private readonly activeStates: Set<string>[];
  private readonly occupancy: Int32Array[];
  private readonly initial: AgentSnapshot;
  private readonly activeFlag: Uint8Array;
  private active = 0;

  constructor(
    readonly agentMachine: AgentMachine,
    readonly size: number,
  ) {
    const spec = agentMachine.spec;
    this.regionNames = [LIFE_REGION, ...Object.keys(spec.regions)];
    this.states = [
      ['idle', 'deliberating'],
      ...Object.values(spec.regions).map((r) => Object.keys(r.states)),
    ];
    this.activeStates = [
      new Set<string>(),
      ...Object.values(spec.regions).map(
        (r) =>
          new Set(
            Object.entries(r.states)
              .filter(([, s]) => s.tags?.includes('active'))
              .map(([n]) => n),
          ),
      ),
    ];
    this.actors = new Array(size);
    const start = createActor(agentMachine.machine);
    start.start();
    this.initial = start.getPersistedSnapshot() as unknown as AgentSnapshot;
    start.stop();
    this.occupancy = this.regionNames.map((name, r) => {
      const c = new Int32Array(this.states[r].length);
      c[this.states[r].indexOf(this.initial.value[name])] = size;
      return c;
    });
    this.activeFlag = new Uint8Array(size);
    if (this.activeOf(this.initial.value)) {
      this.activeFlag.fill(1);
      this.active = size;
    }
  }

  private activeOf(value: Record<string, string>): boolean {
    return this.regionNames.some((name, r) => this.activeStates[r].has(value[name]));
  }

  /** The live actor of agent `i`, created from its snapshot on first use. */
  actor(i: number): AnyActor {
    let a = this.actors[i];
    if (!a) {
      a = createActor(this.agentMachine.machine, { snapshot: this.initial as never });
      a.start();
      this.actors[i] = a;
    }
    return a;
  }

  private value(i: number): Record<string, string> {
    const a = this.actors[i];
    return a ? (a.getSnapshot().value as Record<string, string>) : this.initial.value;
  }

  stateNames(region: number): readonly string[] {
    return this.states[region];
  }

  send(i: number, event: string): boolean {
    const before = this.value(i);
    this.actor(i).send({ type: event });
    const after = this.value(i);
    if (after === before) return false;
    let changed = false;
    this.regionNames.forEach((name, r) => {
      if (before[name] === after[name]) return;
      changed = true;
      this.occupancy[r][this.states[r].indexOf(before[name])]--;
      this.occupancy[r][this.states[r].indexOf(after[name])]++;
    });
    if (changed) this.refreshActive(i, after);
    return changed;
  }

  private refreshActive(i: number, value: Record<string, string>): void {
    const a = this.activeOf(value) ? 1 : 0;
    if (a !== this.activeFlag[i]) {
      this.activeFlag[i] = a;
      this.active += a ? 1 : -1;
    }
  }

  stateIndex(i: number, region: number): number {
    return this.states[region].indexOf(this.value(i)[this.regionNames[region]]);
  }

  isActive(i: number): boolean {
    return this.activeFlag[i] === 1;
  }

  activeCount(): number {
    return this.active;
  }

  getMemory(i: number, key: string): Json | undefined {
    const a = this.actors[i];
    const mem = a ? (a.getSnapshot().context.mem as Record<string, Json>) : this.initial.context.mem;
    return mem[key];
  }

  setMemory(i: number, key: string, value: Json): void {
    this.actor(i).send({ type: MEMORY_EVENT, patch: { [key]: value } } as { type: string });
  }

  counts(region: number): Int32Array {
    return this.occupancy[region];
  }

  snapshot(i: number): AgentSnapshot {
    const a = this.actors[i];
    return a ? (a.getPersistedSnapshot() as unknown as AgentSnapshot) : structuredClone(this.initial);
  }

  restore(i: number, snapshot: AgentSnapshot): void {
    const before = this.value(i);
    for (const [name, state] of Object.entries(snapshot.value)) {
      const r = this.regionNames.indexOf(name);
      if (r < 0 || !this.states[r].includes(state))
        throw new ConfigError(`snapshot of agent ${i}: unknown state "${state}" in region "${name}"`);
    }
    this.actors[i]?.stop();
    const a = createActor(this.agentMachine.machine, { snapshot: snapshot as never });
    a.start();
    this.actors[i] = a;
    this.regionNames.forEach((name, r) => {
      this.occupancy[r][this.states[r].indexOf(before[name])]--;
      this.occupancy[r][this.states[r].indexOf(snapshot.value[name])]++;
    });
    this.refreshActive(i, snapshot.value);
  }

  digest(d: Digest): void {
    this.regionNames.forEach((name, r) => {
      const col = new Uint8Array(this.size);
      for (let i = 0; i < this.size; i++) col[i] = this.stateIndex(i, r);
      d.text(`region:${name}\n`).bytes(col);
    });
    const slots = this.agentMachine.spec.memory ?? {};
    const extra: Json[] = [];
    for (const key of Object.keys(slots).sort()) {
      const col = makeColumn(slots[key].type ?? 'f64', this.size, 0);
      for (let i = 0; i < this.size; i++) col[i] = Number(this.getMemory(i, key) ?? 0);
      d.text(`mem:${key}\n`).bytes(col);
    }
    for (let i = 0; i < this.size; i++) {
      const a = this.actors[i];
      if (!a) continue;
      const mem = a.getSnapshot().context.mem as Record<string, Json>;
      const rest = Object.keys(mem).filter((k) => !(k in slots));
      if (rest.length) extra.push([i, Object.fromEntries(rest.map((k) => [k, mem[k]]))]);
    }
    if (extra.length) d.text(`json:${canonicalJson(extra)}`);
  }

  bytesPerAgent(): number {
    return 3000;
  }
}
