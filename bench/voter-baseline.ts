/**
 * Plain event-driven programs of the voter model for bench/continuous-baseline.ts: typed
 * arrays and no engine. The rate-1 voter wakes every agent at rate 1; the voter by
 * discordance runs the same law with only the agents that have a disagreeing neighbour
 * (docs/TIME.md): each of the m such agents is proposed at rate 1 and flips with
 * probability d_i^disc / d_i (thinning to its rate), and a flip updates its neighbours'
 * counts. Both report the share of discordant edges at a few times.
 */
import type { Csr, Random } from './continuous-baseline-support.ts';

/** The times at which the share of discordant edges is reported. */
const CHECKPOINTS = [1, 10, 100, 1000, 2000, 5000, 10_000];

/** Random opinions, half and half in expectation, and each agent's number of disagreeing neighbours. */
function start(g: Csr, rnd: Random) {
  const n = g.offsets.length - 1;
  const x = new Uint8Array(n);
  let ones = 0;
  for (let i = 0; i < n; i++)
    if (rnd.next() < 0.5) {
      x[i] = 1;
      ones++;
    }
  const disc = new Int32Array(n);
  let discordant = 0; // directed: each discordant edge counted from both ends
  for (let i = 0; i < n; i++) {
    for (let e = g.offsets[i]; e < g.offsets[i + 1]; e++) if (x[g.neighbours[e]] !== x[i]) disc[i]++;
    discordant += disc[i];
  }
  return { n, x, ones, disc, discordant };
}

/** Voter model: every agent wakes at rate 1 and copies a uniform neighbour's opinion. */
export function voter(g: Csr, tmax: number, rnd: Random) {
  const { n, x, ...s } = start(g, rnd);
  let ones = s.ones;
  let t = 0;
  let events = 0;
  while (ones > 0 && ones < n) {
    t += rnd.exponential(n);
    if (t > tmax) break;
    events++;
    const i = rnd.int(n);
    const d = g.offsets[i + 1] - g.offsets[i];
    if (d === 0) continue;
    const y = x[g.neighbours[g.offsets[i] + rnd.int(d)]];
    ones += y - x[i];
    x[i] = y;
  }
  return { events, time: Math.min(t, tmax), consensus: ones === 0 || ones === n };
}

/** Voter model by discordance; events = flips. */
export function voterDiscordance(g: Csr, tmax: number, rnd: Random) {
  const { n, x, disc, ...s } = start(g, rnd);
  let { ones, discordant } = s;
  const active = new Int32Array(n); // the agents with a disagreeing neighbour, at[i] their place
  const at = new Int32Array(n).fill(-1);
  let m = 0;
  const place = (i: number) => {
    if (disc[i] > 0 && at[i] < 0) {
      at[i] = m;
      active[m++] = i;
    } else if (disc[i] === 0 && at[i] >= 0) {
      const last = active[--m];
      active[at[i]] = last;
      at[last] = at[i];
      at[i] = -1;
    }
  };
  for (let i = 0; i < n; i++) place(i);
  const shares: Record<string, number> = {};
  let next = 0;
  let t = 0;
  let events = 0;
  while (m > 0) {
    t += rnd.exponential(m);
    while (next < CHECKPOINTS.length && CHECKPOINTS[next] <= Math.min(t, tmax))
      shares[CHECKPOINTS[next++]] = discordant / g.neighbours.length;
    if (t > tmax) break;
    const i = active[rnd.int(m)];
    const d = g.offsets[i + 1] - g.offsets[i];
    if (rnd.next() * d >= disc[i]) continue;
    events++;
    const y = 1 - x[i];
    x[i] = y;
    ones += y === 1 ? 1 : -1;
    for (let e = g.offsets[i]; e < g.offsets[i + 1]; e++) {
      const j = g.neighbours[e];
      disc[j] += x[j] === y ? -1 : 1;
      place(j);
    }
    discordant += 2 * (d - 2 * disc[i]);
    disc[i] = d - disc[i];
    place(i);
  }
  return { events, time: Math.min(t, tmax), consensus: ones === 0 || ones === n, discordantShare: shares };
}
