import { createHash } from 'node:crypto';
import { type AnyActor, createActor } from 'xstate';
import { ConfigError, type Digest, type Json } from '../core/index.ts';
import { ActiveSet } from './active-set.ts';
import type { AgentExecutor, AgentSnapshot } from './agent-executor.ts';
import { type AgentMachine, COMMIT, MEMORY_EVENT, OBSERVE } from './agent-machine.ts';
import { CanonicalJsonCache } from './canonical-json-cache.ts';
import { makeColumn } from './columnar-executor.ts';
import { JsonMemoryDigest } from './json-memory-digest.ts';

import type { MachineLayout } from './machine-layout.ts';
import { StateHash } from './state-hash.ts';

/** How the state digest covers JSON memory, by log format: 3 `bound`, 2 `additive`, 1 `full`. */
export type DigestScheme = 'bound' | 'additive' | 'full';

/**
 * One XState v5 actor per agent, with full statechart semantics. Actors are hydrated
 * lazily: an agent that never acted costs nothing until it is touched, and a snapshot
 * restores an actor from plain JSON.
 */
export class XStateExecutor implements AgentExecutor {
  readonly kind = 'xstate' as const;
  readonly layout: MachineLayout;
  readonly regionNames: readonly string[];
  private readonly actors: (AnyActor | undefined)[];
  private readonly activeStates: Set<string>[];
  private readonly occupancy: Int32Array[];
  private readonly initial: AgentSnapshot;
  private readonly activeSet: ActiveSet;
  private readonly hash = new StateHash();
  private readonly json = new CanonicalJsonCache();
  private jsonDigest: JsonMemoryDigest;
  /** 'bound' (log format 3, the default), 'additive' (format 2) or 'full' (format 1); see {@link XStateExecutor.stateHash}. */
  private digestScheme: DigestScheme = 'bound';
  private readonly slotNames: ReadonlySet<string>;
  /** One-element columns that coerce slot values exactly as the columnar executor stores them. */
  private readonly coerce: ReturnType<typeof makeColumn>[];

  constructor(
    readonly agentMachine: AgentMachine,
    readonly size: number,
  ) {
    const spec = agentMachine.spec;
    this.layout = agentMachine.layout;
    this.regionNames = this.layout.regions;
    this.slotNames = new Set(this.layout.slots);
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
    this.coerce = this.layout.slotTypes.map((t) => makeColumn(t, 1, 0));
    this.actors = new Array(size);
    this.jsonDigest = new JsonMemoryDigest(size, 3);
    const start = createActor(agentMachine.machine);
    start.start();
    this.initial = start.getPersistedSnapshot() as unknown as AgentSnapshot;
    start.stop();
    this.occupancy = this.regionNames.map((name, r) => {
      const c = new Int32Array(this.layout.states[r].length);
      c[this.layout.states[r].indexOf(this.initial.value[name])] = size;
      return c;
    });
    this.activeSet = new ActiveSet(size);
    if (this.activeOf(this.initial.value)) {
      this.activeSet.fillAll();
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

  private mem(i: number): Record<string, Json> {
    const a = this.actors[i];
    return a ? (a.getSnapshot().context.mem as Record<string, Json>) : this.initial.context.mem;
  }

  stateNames(region: number): readonly string[] {
    return this.layout.states[region];
  }

  sendId(i: number, event: number): boolean {
    return this.send(i, this.layout.events[event]);
  }

  send(i: number, event: string): boolean {
    const before = this.value(i);
    this.actor(i).send({ type: event });
    return this.account(i, before, this.value(i));
  }

  private account(i: number, before: Record<string, string>, after: Record<string, string>): boolean {
    if (after === before) return false;
    let changed = false;
    this.regionNames.forEach((name, r) => {
      if (before[name] === after[name]) return;
      changed = true;
      const states = this.layout.states[r];
      const from = states.indexOf(before[name]);
      const to = states.indexOf(after[name]);
      this.occupancy[r][from]--;
      this.occupancy[r][to]++;
      this.hash.change(i, r, from, to);
    });
    if (changed) this.refreshActive(i, after);
    return changed;
  }

  beginStep(i: number): void {
    this.send(i, OBSERVE);
  }

  endStep(i: number): void {
    this.send(i, COMMIT);
  }

  private refreshActive(i: number, value: Record<string, string>): void {
    const a = this.activeOf(value) ? 1 : 0;
    this.activeSet.set(i, a);
  }

  stateIndex(i: number, region: number): number {
    return this.layout.states[region].indexOf(this.value(i)[this.regionNames[region]]);
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

  slot(i: number, k: number): number {
    return Number(this.mem(i)[this.layout.slots[k]] ?? this.layout.slotInitial[k]);
  }

  setSlot(i: number, k: number, value: number): void {
    const from = this.slot(i, k);
    const c = this.coerce[k];
    c[0] = value + 0; // -0 -> 0, as the columnar executor stores it
    const to = c[0];
    this.actor(i).send({ type: MEMORY_EVENT, patch: { [this.layout.slots[k]]: to } } as { type: string });
    this.hash.change(i, this.regionNames.length + k, from, to);
  }

  getMemory(i: number, key: string): Json | undefined {
    return this.mem(i)[key];
  }

  setMemory(i: number, key: string, value: Json): void {
    const k = this.layout.slots.indexOf(key);
    if (k >= 0) {
      if (typeof value !== 'number')
        throw new ConfigError(`memory slot "${key}" is numeric; got ${typeof value}`, {
          hint: 'store numbers in declared slots, other JSON under other keys',
        });
      this.setSlot(i, k, value);
      return;
    }
    this.actor(i).send({ type: MEMORY_EVENT, patch: { [key]: value } } as { type: string });
  }

  /**
   * As {@link XStateExecutor.setMemory} for each entry in order, with one memory event for each
   * run of JSON keys instead of one per key: `{...mem, ...patch}` once gives the same context
   * (same keys in the same order) as one spread per key, and an XState event (a macrostep and a
   * new snapshot) is most of a write's cost. A numeric slot ends the run (written on its own,
   * with its hash change), so an error comes at the same entry, after the same writes.
   */
  setMemories(i: number, entries: readonly (readonly [string, Json])[]): void {
    let patch: Record<string, Json> | undefined;
    for (const [key, value] of entries) {
      if (this.layout.slots.indexOf(key) < 0) {
        patch ??= {};
        patch[key] = value;
        continue;
      }
      if (patch) this.actor(i).send({ type: MEMORY_EVENT, patch } as { type: string });
      patch = undefined;
      this.setMemory(i, key, value);
    }
    if (patch) this.actor(i).send({ type: MEMORY_EVENT, patch } as { type: string });
  }

  counts(region: number): Int32Array {
    return this.occupancy[region];
  }

  snapshot(i: number): AgentSnapshot {
    const a = this.actors[i];
    return a ? (a.getPersistedSnapshot() as unknown as AgentSnapshot) : structuredClone(this.initial);
  }

  restore(i: number, snapshot: AgentSnapshot): void {
    for (const [name, state] of Object.entries(snapshot.value)) {
      const r = this.regionNames.indexOf(name);
      if (r < 0 || !this.layout.states[r].includes(state))
        throw new ConfigError(`snapshot of agent ${i}: unknown state "${state}" in region "${name}"`);
    }
    const before = this.value(i);
    const slotsBefore = this.layout.slots.map((_, k) => this.slot(i, k));
    this.actors[i]?.stop();
    const a = createActor(this.agentMachine.machine, { snapshot: snapshot as never });
    a.start();
    this.actors[i] = a;
    this.account(i, before, snapshot.value);
    slotsBefore.forEach((from, k) => {
      this.hash.change(i, this.regionNames.length + k, from, this.slot(i, k));
    });
  }

  /**
   * Chooses how {@link XStateExecutor.stateHash} covers JSON memory: `bound` (log format 3,
   * the default) or `additive` (format 2), both incremental (see {@link JsonMemoryDigest}), or
   * `full` (format 1: SHA-256 of the canonical JSON of every agent's JSON memory, every tick).
   * Called before the first tick.
   */
  useDigestScheme(scheme: DigestScheme): void {
    if (scheme !== this.digestScheme && scheme !== 'full')
      this.jsonDigest = new JsonMemoryDigest(this.size, scheme === 'bound' ? 3 : 2);
    this.digestScheme = scheme;
  }

  stateHash(): string {
    if (this.digestScheme !== 'full') {
      for (let i = 0; i < this.size; i++) {
        if (this.actors[i]) this.jsonDigest.update(i, this.mem(i), this.slotNames);
      }
      return this.jsonDigest.hex(this.hash.hex());
    }
    const extra = this.extraMemory();
    if (extra.length === 0) return this.hash.hex();
    // sha256(hex + canonicalJson(extra)), fed piece by piece: the same bytes, no joined copy.
    const h = createHash('sha256').update(this.hash.hex()).update('[');
    extra.forEach((part, n) => {
      if (n > 0) h.update(',');
      h.update(part);
    });
    return h.update(']').digest('hex').slice(0, 16);
  }

  /**
   * Memory outside the declared numeric slots (LLM agents' JSON), by agent: for each agent
   * that has some, the canonical JSON of `[i, {key: value...}]`. Deeply frozen containers
   * (memory streams) are written once and remembered, so a tick re-writes only what changed.
   */
  private extraMemory(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.size; i++) {
      const fields = this.extraFields(i);
      if (fields !== undefined) out.push(this.json.write([i, fields]));
    }
    return out;
  }

  /** Agent `i`'s memory outside the declared numeric slots, or undefined when it has none (or no actor). */
  private extraFields(i: number): Record<string, unknown> | undefined {
    if (!this.actors[i]) return undefined;
    const mem = this.mem(i);
    const rest = Object.keys(mem).filter((k) => !this.slotNames.has(k));
    if (rest.length === 0) return undefined;
    const fields: Record<string, unknown> = {};
    for (const k of rest) fields[k] = mem[k];
    return fields;
  }

  digest(d: Digest): void {
    this.regionNames.forEach((name, r) => {
      const col = new Uint8Array(this.size);
      for (let i = 0; i < this.size; i++) col[i] = this.stateIndex(i, r);
      d.text(`region:${name}\n`).bytes(col);
    });
    this.layout.slots.forEach((key, k) => {
      const col = makeColumn(this.layout.slotTypes[k], this.size, 0);
      for (let i = 0; i < this.size; i++) col[i] = this.slot(i, k);
      d.text(`mem:${key}\n`).bytes(col);
    });
    // The canonical JSON of [[i, fields], ...] as extraMemory lists them, streamed into the
    // hash in pieces: one pass, with no whole-stream string per agent.
    let n = 0;
    for (let i = 0; i < this.size; i++) {
      const fields = this.extraFields(i);
      if (fields === undefined) continue;
      d.text(n++ === 0 ? 'json:[' : ',');
      this.json.writeChunks([i, fields], (text) => d.text(text));
    }
    if (n > 0) d.text(']');
  }

  exportState(): Json {
    const agents: Json[] = [];
    for (let i = 0; i < this.size; i++)
      if (this.actors[i]) agents.push([i, this.snapshot(i) as unknown as Json]);
    return { kind: 'xstate', size: this.size, agents, hash: this.hash.state() };
  }

  importState(json: Json): void {
    const s = json as {
      kind: string;
      size: number;
      agents: [number, AgentSnapshot][];
      hash: [number, number];
    };
    if (s.kind !== 'xstate' || s.size !== this.size) {
      throw new ConfigError('snapshot does not fit this population (executor or size differ)', {
        hint: 'restore a snapshot of the same world and parameters',
      });
    }
    for (let i = 0; i < this.size; i++) this.actors[i]?.stop();
    this.actors.fill(undefined);
    this.jsonDigest.reset();
    for (const [i, snap] of s.agents) {
      const a = createActor(this.agentMachine.machine, { snapshot: snap as never });
      a.start();
      this.actors[i] = a;
    }
    this.hash.restore(s.hash);
    this.occupancy.forEach((c) => {
      c.fill(0);
    });
    this.activeSet.clear();
    for (let i = 0; i < this.size; i++) {
      const value = this.value(i);
      this.regionNames.forEach((name, r) => {
        this.occupancy[r][this.layout.states[r].indexOf(value[name])]++;
      });
      this.refreshActive(i, value);
    }
  }

  bytesPerAgent(): number {
    return 0;
  }
}
