import { ConfigError } from '../core/index.ts';
import type { AgentMachineSpec, MemoryType } from './agent-machine-spec.ts';

/**
 * Numeric handles for an agent machine's regions, states, events and memory slots, fixed
 * by its spec: region 0 is the lifecycle (`life`: idle, deliberating), then the spec's
 * regions in declaration order; states in declaration order; events in order of first
 * appearance; slots sorted by name. Policies on hot paths resolve names once and then
 * pass numbers; both executors index everything the same way.
 */
export class MachineLayout {
  readonly regions: readonly string[];
  readonly states: readonly (readonly string[])[];
  readonly initial: Int32Array;
  readonly events: readonly string[];
  readonly slots: readonly string[];
  readonly slotTypes: readonly MemoryType[];
  readonly slotInitial: Float64Array;
  private readonly eventIds = new Map<string, number>();

  constructor(spec: AgentMachineSpec, life: { name: string; states: string[]; events: string[] }) {
    const regions = Object.entries(spec.regions);
    this.regions = [life.name, ...regions.map(([n]) => n)];
    this.states = [life.states, ...regions.map(([, r]) => Object.keys(r.states))];
    this.initial = Int32Array.from([0, ...regions.map(([, r]) => Object.keys(r.states).indexOf(r.initial))]);
    const events = [...life.events];
    for (const [, r] of regions)
      for (const s of Object.values(r.states))
        for (const e of Object.keys(s.on ?? {})) if (!events.includes(e)) events.push(e);
    this.events = events;
    events.forEach((e, i) => {
      this.eventIds.set(e, i);
    });
    const slots = Object.keys(spec.memory ?? {}).sort();
    this.slots = slots;
    this.slotTypes = slots.map((k) => spec.memory![k].type ?? 'f64');
    this.slotInitial = Float64Array.from(slots.map((k) => spec.memory![k].initial));
  }

  /** Index of a region. */
  region(name: string): number {
    const r = this.regions.indexOf(name);
    if (r < 0)
      throw new ConfigError(`no region "${name}" in the agent machine`, {
        hint: `regions: ${this.regions.join(', ')}`,
      });
    return r;
  }

  /** Index of a state within its region. */
  state(region: number, name: string): number {
    const s = this.states[region]?.indexOf(name) ?? -1;
    if (s < 0)
      throw new ConfigError(`no state "${name}" in region "${this.regions[region]}"`, {
        hint: `states: ${this.states[region]?.join(', ')}`,
      });
    return s;
  }

  /** Id of an event; -1 for an event no state handles (sending it does nothing). */
  eventId(name: string): number {
    return this.eventIds.get(name) ?? -1;
  }

  /** Id of an event that must exist. */
  event(name: string): number {
    const e = this.eventId(name);
    if (e < 0)
      throw new ConfigError(`no state handles event "${name}"`, {
        hint: `events: ${this.events.join(', ')}`,
      });
    return e;
  }

  /** Index of a numeric memory slot. */
  slot(name: string): number {
    const k = this.slots.indexOf(name);
    if (k < 0)
      throw new ConfigError(`no memory slot "${name}"`, {
        hint: `slots: ${this.slots.join(', ') || 'none declared'}`,
      });
    return k;
  }
}
