import type { AnyStateMachine } from 'xstate';
import { ConfigError } from '../core/index.ts';
import { MEMORY_EVENT } from './agent-machine.ts';

/** One region of a compiled machine. */
export interface CompiledRegion {
  readonly name: string;
  readonly states: readonly string[];
  readonly initial: number;
  /** 1 where the state carries the `active` tag. */
  readonly active: Uint8Array;
  /** next[state * eventCount + event] = target state index, or -1 for no transition. */
  readonly next: Int16Array;
}

/** A transition table built from an XState machine in the compilable subset. */
export interface TransitionTable {
  readonly id: string;
  readonly regions: readonly CompiledRegion[];
  /** Every event type that causes some transition, interned. */
  readonly events: readonly string[];
  /** Event type -> index in `events`. */
  readonly eventIndex: ReadonlyMap<string, number>;
}

// Minimal structural view of XState's StateNode that the compiler reads.
interface NodeView {
  key: string;
  type: string;
  states: Record<string, NodeView>;
  on: Record<string, Array<{ target?: NodeView[]; guard?: unknown; actions: unknown[]; reenter: boolean }>>;
  tags: readonly string[];
  entry: unknown[];
  exit: unknown[];
  invoke: unknown[];
  after: unknown[];
  always?: unknown[];
  path: string[];
}

function unsupported(where: string, what: string): ConfigError {
  return new ConfigError(`machine cannot be compiled: ${where} uses ${what}`, {
    hint: 'the columnar executor supports a parallel root of flat regions with plain event transitions; run this agent with executor "xstate"',
  });
}

function checkPlainNode(node: NodeView, where: string): void {
  if (node.after.length) throw unsupported(where, 'delayed (after) transitions');
  if (node.invoke.length) throw unsupported(where, 'invoked actors');
  if (node.entry.length || node.exit.length) throw unsupported(where, 'entry/exit actions');
  if (node.always?.length) throw unsupported(where, 'eventless (always) transitions');
}

/**
 * Compiles an XState machine into a {@link TransitionTable} for the columnar executor.
 * The subset: a parallel root; each region a compound state of atomic states; transitions
 * by event type to a sibling, without guards or actions. The only root-level handler
 * allowed is the memory event. Anything else is a clear {@link ConfigError}.
 */
export function compileMachine(machine: AnyStateMachine): TransitionTable {
  const root = machine.root as unknown as NodeView;
  if (root.type !== 'parallel')
    throw unsupported(`machine "${machine.id}"`, `a ${root.type} root (needs parallel)`);
  checkPlainNode(root, `machine "${machine.id}"`);
  for (const ev of Object.keys(root.on))
    if (ev !== MEMORY_EVENT) throw unsupported('the root', `a handler for "${ev}"`);
  const eventIndex = new Map<string, number>();
  const regionNodes = Object.values(root.states);
  for (const region of regionNodes) collectEvents(region, eventIndex);
  const regions = regionNodes.map((r) => compileRegion(r, eventIndex));
  return { id: machine.id, regions, events: [...eventIndex.keys()], eventIndex };
}

function collectEvents(region: NodeView, index: Map<string, number>): void {
  for (const state of Object.values(region.states)) {
    for (const ev of Object.keys(state.on).sort()) if (!index.has(ev)) index.set(ev, index.size);
  }
}

function compileRegion(region: NodeView, eventIndex: Map<string, number>): CompiledRegion {
  const where = region.path.join('.');
  if (region.type !== 'compound') throw unsupported(where, `a ${region.type} region`);
  checkPlainNode(region, where);
  const names = Object.keys(region.states);
  const E = eventIndex.size;
  const next = new Int16Array(names.length * E).fill(-1);
  const active = new Uint8Array(names.length);
  names.forEach((name, s) => {
    const node = region.states[name];
    const at = `${where}.${name}`;
    if (node.type !== 'atomic') throw unsupported(at, `a nested ${node.type} state`);
    checkPlainNode(node, at);
    active[s] = node.tags.includes('active') ? 1 : 0;
    for (const [ev, transitions] of Object.entries(node.on)) {
      const t = transitions[0];
      if (transitions.length > 1 || t.guard !== undefined)
        throw unsupported(at, `a guarded transition on "${ev}"`);
      if (t.actions.length) throw unsupported(at, `actions on "${ev}"`);
      const target = t.target?.[0];
      if (ev.includes('*')) throw unsupported(at, `a wildcard event descriptor "${ev}"`);
      if (!target || t.target!.length !== 1 || region.states[target.key] !== target)
        throw unsupported(at, `a transition on "${ev}" leaving its region`);
      next[s * E + eventIndex.get(ev)!] = names.indexOf(target.key);
    }
  });
  const initialKey = (region as unknown as { initial: { target: NodeView[] } }).initial.target[0].key;
  return { name: region.key, states: names, initial: names.indexOf(initialKey), active, next };
}

/** For each compiled event, the regions with a transition on it: a flat list and its offsets. */
export function regionsByEvent(table: TransitionTable): [Int32Array, Int32Array] {
  const E = table.events.length;
  const start = new Int32Array(E + 1);
  const list: number[] = [];
  for (let e = 0; e < E; e++) {
    start[e] = list.length;
    table.regions.forEach((region, r) => {
      for (let from = 0; from < region.states.length; from++) {
        const to = region.next[from * E + e];
        if (to >= 0 && to !== from) {
          list.push(r);
          return;
        }
      }
    });
  }
  start[E] = list.length;
  return [Int32Array.from(list), start];
}
