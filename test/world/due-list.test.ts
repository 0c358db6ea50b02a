import { describe, expect, it } from 'vitest';
import { AgentSorter } from '../../src/clock/index.ts';
import { RngStreams } from '../../src/core/index.ts';
import { DueScratch, dueAgents, dueList } from '../../src/world/due-list.ts';

/** The definition: every agent with mail or an active flag, ascending. */
function scan(inbox: Int32Array, active: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < active.length; i++) if (active[i] === 1 || inbox[i] > 0) out.push(i);
  return out;
}

function randomCase(seed: number, size: number, pActive: number, pMail: number, pTaken: number) {
  const rng = new RngStreams(seed).stream('due-list');
  const inbox = new Int32Array(size);
  const active = new Uint8Array(size);
  const activeAgents: number[] = [];
  const withInbox: number[] = [];
  for (let i = 0; i < size; i++) {
    if (rng.chance(pActive)) {
      active[i] = 1;
      activeAgents.push(i);
    }
    if (rng.chance(pMail)) {
      withInbox.push(i);
      // an agent already stepped this tick stays in the recipients with an emptied inbox
      inbox[i] = rng.chance(pTaken) ? 0 : 1 + rng.int(3);
    }
  }
  rng.shuffle(activeAgents);
  return {
    inbox,
    active,
    activeAgents: Int32Array.from(activeAgents),
    withInbox: Int32Array.from(withInbox),
  };
}

describe('dueList', () => {
  it.each([
    [1, 0.001, 0.002, 0],
    [2, 0.01, 0, 0],
    [3, 0, 0.01, 0.5],
    [4, 0.005, 0.005, 0.3],
    [5, 0.3, 0.2, 0.1],
    [6, 0, 0, 0],
    [7, 0.6, 0.6, 0.2],
    [8, 0.999, 0, 0],
  ])('seed %i (active %f, mail %f, taken %f) equals the population scan', (seed, pa, pm, pt) => {
    const c = randomCase(seed, 20_000, pa, pm, pt);
    const got = dueList(c.inbox, c.active, c.activeAgents, c.withInbox);
    expect(got).toEqual(scan(c.inbox, c.active));
  });

  it('refills one list, with its sorter and scratch bits, across calls of every kind (few, some, most agents due)', () => {
    const sorter = new AgentSorter();
    const bits = new DueScratch();
    const cases = [
      randomCase(11, 50_000, 0.1, 0.1, 0.2),
      randomCase(12, 50_000, 0.0005, 0.0005, 0.2),
      randomCase(13, 50_000, 0.05, 0.02, 0.5),
      randomCase(14, 50_000, 0.7, 0.5, 0.1),
      randomCase(15, 50_000, 0.1, 0.1, 0.2),
    ];
    for (const c of cases) {
      const got = dueList(c.inbox, c.active, c.activeAgents, c.withInbox, sorter, bits);
      expect(got).toBe(bits.list);
      expect(got).toEqual(scan(c.inbox, c.active));
    }
    expect(bits.words.some((w) => w !== 0)).toBe(false);
  });

  it('dueAgents refills one typed array, grown and never trimmed, with the same agents as the list', () => {
    const sorter = new AgentSorter();
    const bits = new DueScratch();
    // small, large, small again, most: stale agents beyond a shorter call must not show
    const cases = [
      randomCase(21, 50_000, 0.0005, 0.0005, 0.2),
      randomCase(22, 50_000, 0.1, 0.1, 0.2),
      randomCase(23, 50_000, 0.001, 0.001, 0.5),
      randomCase(24, 50_000, 0.7, 0.5, 0.1),
      randomCase(25, 50_000, 0.05, 0.02, 0.5),
    ];
    let capacity = 0;
    for (const c of cases) {
      const got = dueAgents(c.inbox, c.active, c.activeAgents, c.withInbox, sorter, bits);
      expect(got.buffer).toBe(bits.ids.buffer);
      expect(Array.from(got)).toEqual(scan(c.inbox, c.active));
      expect(bits.ids.length).toBeGreaterThanOrEqual(capacity);
      expect(bits.ids.length).toBeLessThanOrEqual(50_000);
      capacity = bits.ids.length;
    }
    expect(bits.words.some((w) => w !== 0)).toBe(false);
  });

  it('an agent both active and with mail is listed once', () => {
    const size = 1000;
    const inbox = new Int32Array(size);
    const active = new Uint8Array(size);
    active[7] = 1;
    active[3] = 1;
    inbox[7] = 2;
    inbox[900] = 1;
    expect(dueList(inbox, active, Int32Array.of(7, 3), Int32Array.of(7, 900))).toEqual([3, 7, 900]);
  });
});
