import { describe, expect, it } from 'vitest';
import { AgentSorter } from '../../src/clock/index.ts';
import { RngStreams } from '../../src/core/index.ts';
import { dueList } from '../../src/world/due-list.ts';

/** `count` distinct agents of a population of `size`, in random order. */
function agents(seed: number, size: number, count: number): Int32Array {
  const rng = new RngStreams(seed).stream('agent-sort');
  const seen = new Set<number>();
  while (seen.size < count) seen.add(rng.int(size));
  return Int32Array.from(seen);
}

describe('AgentSorter', () => {
  it.each([
    [1, 10, 0],
    [2, 1000, 200],
    [3, 1 << 20, 5000],
    [4, 5_000_000, 3000],
    [5, 2 ** 31 - 1, 4000],
  ])('seed %i: %i agents, %i listed: ascending, same members, input untouched', (seed, size, count) => {
    const list = agents(seed, size, count);
    const before = list.slice();
    const got = Array.from(new AgentSorter().sorted(list, size));
    expect(got).toEqual(Array.from(before).sort((x, y) => x - y));
    expect(list).toEqual(before);
  });

  it('reuses its buffers: a second, shorter call is right too', () => {
    const sorter = new AgentSorter();
    sorter.sorted(agents(6, 100_000, 4000), 100_000);
    const list = agents(7, 100_000, 700);
    expect(Array.from(sorter.sorted(list, 100_000))).toEqual(Array.from(list).sort((x, y) => x - y));
  });

  it('gives dueList the same list as a population scan when many agents are active', () => {
    const size = 100_000;
    const active = new Uint8Array(size);
    const inbox = new Int32Array(size);
    const activeAgents = agents(8, size, 3000);
    for (const i of activeAgents) active[i] = 1;
    const withInbox = agents(9, size, 2000).sort();
    for (const i of withInbox) inbox[i] = 1;
    const scan: number[] = [];
    for (let i = 0; i < size; i++) if (active[i] === 1 || inbox[i] > 0) scan.push(i);
    expect(dueList(inbox, active, activeAgents, withInbox, new AgentSorter())).toEqual(scan);
  });
});
