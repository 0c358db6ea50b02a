import { base64ToTyped, LogFormatError } from '../core/index.ts';

/** Names and types of an agent machine's regions and memory slots (a `MachineLayout`). */
export interface StateLayout {
  /** Region names, region 0 being the lifecycle. */
  regions: readonly string[];
  /** State names per region. */
  states: readonly (readonly string[])[];
  /** Memory slot names, sorted (the order of a columnar snapshot's columns). */
  slots: readonly string[];
  /** Storage type per slot. */
  slotTypes: readonly ('u8' | 'i32' | 'f64')[];
  /** Initial value per slot (what an agent never hydrated by the XState executor holds). */
  slotInitial: ArrayLike<number>;
}

/** Every agent's state per region and numeric memory per slot, from a snapshot event. */
export interface FinalState {
  /** Tick of the snapshot. */
  tick: number;
  /** Number of agents. */
  size: number;
  /** Per region: its state names and each agent's state index. */
  regions: Map<string, { states: readonly string[]; values: Uint8Array }>;
  /** Per numeric memory slot: each agent's value. */
  slots: Map<string, ArrayLike<number>>;
}

type Columnar = { kind: 'columnar'; size: number; regions: string[]; columns: string[] };
type Agent = { value: Record<string, string>; context: { mem: Record<string, unknown> } };
type XState = { kind: 'xstate'; size: number; agents: [number, Agent][] };

/**
 * Decodes the executor part of a `snapshot` event (`event.state.executor`) into named
 * columns. Columnar snapshots hold unnamed typed arrays, so they need the layout of the
 * world's agent machine; XState snapshots name everything and use the layout only for the
 * initial values of agents that were never hydrated.
 *
 * @throws LogFormatError when the snapshot does not fit the layout.
 */
export function decodeFinalState(tick: number, executor: unknown, layout: StateLayout): FinalState {
  const e = executor as Columnar | XState;
  if (e?.kind === 'columnar') return decodeColumnar(tick, e, layout);
  if (e?.kind === 'xstate') return decodeXState(tick, e, layout);
  throw misfit(`unknown executor kind ${JSON.stringify((e as { kind?: unknown })?.kind)}`);
}

function decodeColumnar(tick: number, e: Columnar, layout: StateLayout): FinalState {
  if (e.regions.length !== layout.regions.length || e.columns.length !== layout.slots.length)
    throw misfit('its regions or memory slots do not match the agent machine');
  const regions: FinalState['regions'] = new Map();
  e.regions.forEach((b, r) => {
    regions.set(layout.regions[r], { states: layout.states[r], values: base64ToTyped(b, Uint8Array) });
  });
  const slots: FinalState['slots'] = new Map();
  e.columns.forEach((b, k) => {
    const t = layout.slotTypes[k];
    const col =
      t === 'u8'
        ? base64ToTyped(b, Uint8Array)
        : t === 'i32'
          ? base64ToTyped(b, Int32Array)
          : base64ToTyped(b, Float64Array);
    if (col.length !== e.size) throw misfit(`memory slot ${layout.slots[k]} has ${col.length} values`);
    slots.set(layout.slots[k], col);
  });
  return { tick, size: e.size, regions, slots };
}

function decodeXState(tick: number, e: XState, layout: StateLayout): FinalState {
  const regions: FinalState['regions'] = new Map();
  layout.regions.forEach((name, r) => {
    regions.set(name, { states: layout.states[r], values: new Uint8Array(e.size) });
  });
  const slots = new Map<string, Float64Array>();
  layout.slots.forEach((name, k) => {
    slots.set(name, new Float64Array(e.size).fill(layout.slotInitial[k]));
  });
  for (const [i, agent] of e.agents) {
    for (const [name, region] of regions) {
      const s = region.states.indexOf(agent.value[name]);
      if (s >= 0) region.values[i] = s;
    }
    for (const [name, col] of slots) {
      const v = agent.context.mem[name];
      if (typeof v === 'number') col[i] = v;
    }
  }
  return { tick, size: e.size, regions, slots };
}

function misfit(why: string): LogFormatError {
  return new LogFormatError(
    `the log's snapshot does not fit its world's agent machine: ${why}`,
    {},
    { hint: 'report the log with the grapevine and world versions that wrote it' },
  );
}
