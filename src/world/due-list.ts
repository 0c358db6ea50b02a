import { AgentSorter } from '../clock/index.ts';

/**
 * The agents due at a tick (with mail, or in an active state), ascending. When they are a
 * small part of the population it merges the sorted active agents with the bus's recipients
 * (already ascending), so the cost follows the agents due, not the population; when they are
 * many, one pass over the population's flags is cheaper and gives the same list.
 * @param inbox messages waiting per agent
 * @param active 1 per agent in an active state
 * @param activeAgents the active agents in any order
 * @param withInbox the agents with messages, ascending
 * @param sorter sorts the active agents in time proportional to their number (an engine
 *   keeps one, so that its buffers are reused tick after tick)
 */
export function dueList(
  inbox: Int32Array,
  active: Uint8Array,
  activeAgents: Int32Array,
  withInbox: Int32Array,
  sorter: AgentSorter = new AgentSorter(),
): number[] {
  const size = active.length;
  // every agent due is active or has mail: sized once (pushing one by one costs ~10x more)
  const out = new Array<number>(activeAgents.length + withInbox.length);
  let k = 0;
  if (out.length * 8 >= size) {
    for (let i = 0; i < size; i++) if (active[i] === 1 || inbox[i] > 0) out[k++] = i;
    out.length = k;
    return out;
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
  out.length = k;
  return out;
}
