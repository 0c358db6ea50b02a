import { AgentSorter } from '../clock/index.ts';
import { unzeroed } from '../core/index.ts';

/**
 * What {@link dueAgents} and {@link dueList} reuse from call to call (an engine keeps one):
 * one bit per agent, all zero between calls, the agents found, and the JS list refilled from
 * them. A fresh JS array of more than ~16k numbers does not fit V8's regular heap objects:
 * allocating one costs ~45 ns per element (measured at 18k and 40k on Node 20) against ~2
 * below that, so nothing here is allocated per tick. The agents are found into `ids`, a typed
 * array grown 2-fold and never trimmed: a refilled JS list still gets a new store each time a
 * rumour's due agents outgrow it (V8 trims a list's store when its length falls to under
 * half, and grows it by half), each a large object kept until the next full GC.
 */
export class DueScratch {
  words = new Uint32Array(0);
  list: number[] = [];
  ids = new Int32Array(0);
}

/**
 * {@link dueAgents} as a JS list (for turn policies that reorder it).
 * @param bits scratch bits and the list to refill; without it the list is a new array
 * @returns the due agents; with `bits`, its list, valid until the next call
 */
export function dueList(
  inbox: Int32Array,
  active: Uint8Array,
  activeAgents: Int32Array,
  withInbox: Int32Array,
  sorter: AgentSorter = new AgentSorter(),
  bits?: DueScratch,
): number[] {
  const ids = dueAgents(inbox, active, activeAgents, withInbox, sorter, bits ?? new DueScratch());
  const out = bits ? bits.list : new Array<number>(ids.length);
  for (let k = 0; k < ids.length; k++) out[k] = ids[k];
  out.length = ids.length;
  return out;
}

/**
 * The agents due at a tick (with mail, or in an active state), ascending. Three ways to the
 * same list, by how many agents may be due (`n`, the active agents plus the recipients):
 * - a few (n below 1/256 of the population): sort the active agents and merge them with the
 *   bus's recipients (already ascending), in time proportional to n;
 * - most of the population: one pass over the population's flags;
 * - in between (a rumour at its peak: a tenth of 10^5 agents): set one bit per active agent
 *   and per recipient with mail, then read the set bits in order, word by word; this costs n
 *   plus 1/32 of the population, instead of a pass over the population (or a sort of n,
 *   whose merge mispredicts a branch at every other agent).
 * @param inbox messages waiting per agent
 * @param active 1 per agent in an active state
 * @param activeAgents the active agents in any order
 * @param withInbox the agents with messages, ascending
 * @param sorter sorts the active agents in time proportional to their number (an engine
 *   keeps one, so that its buffers are reused tick after tick)
 * @param scratch scratch bits and the typed array the agents are written to
 * @returns the due agents: a view of `scratch.ids`, valid until the next call
 */
export function dueAgents(
  inbox: Int32Array,
  active: Uint8Array,
  activeAgents: Int32Array,
  withInbox: Int32Array,
  sorter: AgentSorter,
  scratch: DueScratch,
): Int32Array {
  const size = active.length;
  const n = activeAgents.length + withInbox.length;
  // every agent due is active or has mail, once: at most min(n, size) of them. Written before
  // read, so unzeroed: capacity never reached is never touched
  const most = Math.min(n, size);
  if (scratch.ids.length < most)
    scratch.ids = unzeroed(Int32Array, Math.min(Math.max(most, scratch.ids.length * 2), size));
  const out = scratch.ids;
  let k = 0;
  if (n >= size) {
    for (let i = 0; i < size; i++) if (active[i] === 1 || inbox[i] > 0) out[k++] = i;
    return out.subarray(0, k);
  }
  if (n * 256 >= size) {
    const words = (size + 31) >>> 5;
    if (scratch.words.length < words) scratch.words = new Uint32Array(words);
    const w = scratch.words;
    for (let j = 0; j < activeAgents.length; j++) {
      const i = activeAgents[j];
      w[i >>> 5] |= 1 << (i & 31);
    }
    for (let j = 0; j < withInbox.length; j++) {
      const i = withInbox[j];
      if (inbox[i] > 0) w[i >>> 5] |= 1 << (i & 31);
    }
    for (let c = 0; c < words; c++) {
      let x = w[c];
      if (x === 0) continue;
      w[c] = 0;
      const base = c << 5;
      while (x !== 0) {
        const low = x & -x;
        out[k++] = base + 31 - Math.clz32(low);
        x ^= low;
      }
    }
    return out.subarray(0, k);
  }
  const a = sorter.sorted(activeAgents, size);
  let p = 0;
  let q = 0;
  while (p < a.length || q < withInbox.length) {
    const x = p < a.length ? a[p] : size;
    const y = q < withInbox.length ? withInbox[q] : size;
    if (y < x && inbox[y] === 0) {
      q++; // already stepped this tick: its inbox was taken
      continue;
    }
    out[k++] = Math.min(x, y);
    if (x <= y) p++;
    if (y <= x) q++;
  }
  return out.subarray(0, k);
}
