/**
 * Child of bench/continuous-time.ts: plain event-driven programs of the continuous-time models,
 * typed arrays and no engine, as a modeller would write them first. Each prints one JSON
 * line: the model's outcome (to compare in distribution with the engine's) and the events it
 * handled. Compiled to one JavaScript file by esbuild before it is timed.
 *
 *   node continuous-baseline.js sir-mixed <n> <initial> <contactRate> <beta> <gamma> <seed>
 *   node continuous-baseline.js mt-mixed <n> <seed>
 *   node continuous-baseline.js sir-edge-er <n> <c> <tau> <gamma> <initial> <seed>
 *   node continuous-baseline.js sis-edge-er <n> <c> <tau> <gamma> <initial> <tmax> <seed>
 *   node continuous-baseline.js sis-contact-er <n> <c> <initial> <contactRate> <beta> <gamma> <tmax> <seed>
 *   node continuous-baseline.js voter-ws <n> <k> <beta> <tmax> <seed>
 *   node continuous-baseline.js voter-disc-ws <n> <k> <beta> <tmax> <seed>
 *   node continuous-baseline.js dw-mixed <n> <epsilon> <mu> <tmax> <seed>
 */
import { type Csr, erdosRenyiCsr, Random, wattsStrogatzCsr } from './continuous-baseline-support.ts';
import { voter, voterDiscordance } from './voter-baseline.ts';

/** Gillespie's direct method, well-mixed per-contact SIR: infected agents act at rate γ + c. */
function sirMixed(n: number, initial: number, c: number, beta: number, gamma: number, seed: number) {
  const rnd = new Random(seed);
  const state = new Uint8Array(n); // 0 S, 1 I, 2 R
  const infected = new Int32Array(n);
  const at = new Int32Array(n);
  let count = 0;
  for (let placed = 0; placed < initial; ) {
    const i = rnd.int(n);
    if (state[i] !== 0) continue;
    state[i] = 1;
    at[i] = count;
    infected[count++] = i;
    placed++;
  }
  let t = 0;
  let events = 0;
  let recovered = 0;
  while (count > 0) {
    t += rnd.exponential(count * (gamma + c));
    events++;
    const i = infected[rnd.int(count)];
    if (rnd.next() * (gamma + c) < gamma) {
      state[i] = 2;
      recovered++;
      const last = infected[--count];
      infected[at[i]] = last;
      at[last] = at[i];
      continue;
    }
    let j = rnd.int(n - 1);
    if (j >= i) j++;
    if (state[j] === 0 && rnd.next() < beta) {
      state[j] = 1;
      at[j] = count;
      infected[count++] = j;
    }
  }
  return { events, time: t, finalSize: recovered / n };
}

/** Maki–Thompson, well-mixed: each spreader tells a random other agent at rate 1. */
function mtMixed(n: number, seed: number) {
  const rnd = new Random(seed);
  const state = new Uint8Array(n); // 0 ignorant, 1 spreader, 2 stifler
  const spreaders = new Int32Array(n);
  const at = new Int32Array(n);
  spreaders[0] = rnd.int(n);
  state[spreaders[0]] = 1;
  at[spreaders[0]] = 0;
  let count = 1;
  let aware = 1;
  let t = 0;
  let events = 0;
  while (count > 0) {
    t += rnd.exponential(count);
    events++;
    const i = spreaders[rnd.int(count)];
    let j = rnd.int(n - 1);
    if (j >= i) j++;
    if (state[j] === 0) {
      state[j] = 1;
      aware++;
      at[j] = count;
      spreaders[count++] = j;
    } else {
      state[i] = 2;
      const last = spreaders[--count];
      spreaders[at[i]] = last;
      at[last] = at[i];
    }
  }
  return { events, time: t, reach: aware / n };
}

/**
 * Per-edge SIR/SIS on a network, direct method over the infected agents with a Fenwick tree of
 * their rates γ + τ·degree: an event is a recovery with probability γ/(γ + τd), else a try on a
 * uniform neighbour that infects it if susceptible (every S–I edge at rate τ).
 */
function perEdge(
  g: Csr,
  tau: number,
  gamma: number,
  initial: number,
  tmax: number,
  sis: boolean,
  seed: number,
) {
  const n = g.offsets.length - 1;
  const rnd = new Random(seed + 1);
  const state = new Uint8Array(n);
  const tree = new Float64Array(n + 1);
  const rate = new Float64Array(n);
  const set = (i: number, r: number) => {
    const d = r - rate[i];
    rate[i] = r;
    for (let k = i + 1; k <= n; k += k & -k) tree[k] += d;
  };
  let total = 0;
  const infect = (i: number) => {
    state[i] = 1;
    const r = gamma + tau * (g.offsets[i + 1] - g.offsets[i]);
    set(i, r);
    total += r;
  };
  for (let placed = 0; placed < initial; ) {
    const i = rnd.int(n);
    if (state[i] !== 0) continue;
    infect(i);
    placed++;
  }
  let t = 0;
  let events = 0;
  let ever = initial;
  let prevalence = 0;
  let prevalenceTime = 0;
  let infected = initial;
  while (total > 1e-9) {
    const dt = rnd.exponential(total);
    if (t + dt > tmax) {
      prevalence += infected * (tmax - t);
      prevalenceTime += tmax - t;
      break;
    }
    prevalence += infected * dt;
    prevalenceTime += dt;
    t += dt;
    events++;
    // descend the Fenwick tree to the agent whose cumulative rate passes u
    let u = rnd.next() * total;
    let i = 0;
    for (let step = 1 << Math.floor(Math.log2(n)); step > 0; step >>= 1) {
      if (i + step <= n && tree[i + step] < u) {
        i += step;
        u -= tree[i];
      }
    }
    if (i >= n || rate[i] === 0) continue; // rounding at the very end of the tree
    const d = g.offsets[i + 1] - g.offsets[i];
    if (rnd.next() * (gamma + tau * d) < gamma) {
      total -= rate[i];
      set(i, 0);
      state[i] = sis ? 0 : 2;
      infected--;
      continue;
    }
    const j = g.neighbours[g.offsets[i] + rnd.int(d)];
    if (state[j] === 0) {
      infect(j);
      infected++;
      ever++;
    }
  }
  return {
    events,
    time: t,
    finalSize: ever / n,
    meanPrevalence: prevalence / Math.max(prevalenceTime, 1e-12) / n,
  };
}

/**
 * Per-contact SIS on a network, direct method: every infected agent acts at rate γ + c, and
 * recovers with probability γ/(γ + c), else contacts a uniform neighbour, infected with
 * probability β if susceptible.
 */
function sisContact(
  g: Csr,
  initial: number,
  c: number,
  beta: number,
  gamma: number,
  tmax: number,
  seed: number,
) {
  const n = g.offsets.length - 1;
  const rnd = new Random(seed + 1);
  const infected = new Int32Array(n);
  const at = new Int32Array(n).fill(-1);
  let count = 0;
  const infect = (i: number) => {
    at[i] = count;
    infected[count++] = i;
  };
  for (let placed = 0; placed < initial; placed++) {
    let i = rnd.int(n);
    while (at[i] >= 0) i = rnd.int(n);
    infect(i);
  }
  let t = 0;
  let events = 0;
  let prevalence = 0;
  while (count > 0) {
    const dt = rnd.exponential(count * (gamma + c));
    if (t + dt > tmax) {
      prevalence += count * (tmax - t);
      break;
    }
    prevalence += count * dt;
    t += dt;
    events++;
    const i = infected[rnd.int(count)];
    if (rnd.next() * (gamma + c) < gamma) {
      const last = infected[--count];
      infected[at[i]] = last;
      at[last] = at[i];
      at[i] = -1;
      continue;
    }
    const d = g.offsets[i + 1] - g.offsets[i];
    if (d === 0) continue;
    const j = g.neighbours[g.offsets[i] + rnd.int(d)];
    if (at[j] < 0 && rnd.next() < beta) infect(j);
  }
  return { events, time: Math.min(t, tmax), infected: count, meanPrevalence: prevalence / tmax / n };
}

/** Deffuant–Weisbuch, well-mixed: every agent wakes at rate 1 and meets a uniform other agent. */
function deffuant(n: number, epsilon: number, mu: number, tmax: number, seed: number) {
  const rnd = new Random(seed);
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = rnd.next();
  let t = 0;
  let events = 0;
  for (;;) {
    t += rnd.exponential(n);
    if (t > tmax) break;
    events++;
    const i = rnd.int(n);
    let j = rnd.int(n - 1);
    if (j >= i) j++;
    const d = x[j] - x[i];
    if (Math.abs(d) < epsilon) {
      x[i] += mu * d;
      x[j] -= mu * d;
    }
  }
  return { events, time: tmax };
}

const [model, ...rest] = process.argv.slice(2);
const a = rest.map(Number);
const result =
  model === 'sir-mixed'
    ? sirMixed(a[0], a[1], a[2], a[3], a[4], a[5])
    : model === 'mt-mixed'
      ? mtMixed(a[0], a[1])
      : model === 'sir-edge-er'
        ? perEdge(erdosRenyiCsr(a[0], a[1], a[5]), a[2], a[3], a[4], Number.POSITIVE_INFINITY, false, a[5])
        : model === 'sis-edge-er'
          ? perEdge(erdosRenyiCsr(a[0], a[1], a[6]), a[2], a[3], a[4], a[5], true, a[6])
          : model === 'sis-contact-er'
            ? sisContact(erdosRenyiCsr(a[0], a[1], a[7]), a[2], a[3], a[4], a[5], a[6], a[7])
            : model === 'voter-ws'
              ? voter(wattsStrogatzCsr(a[0], a[1], a[2], a[4]), a[3], new Random(a[4] + 1))
              : model === 'voter-disc-ws'
                ? voterDiscordance(wattsStrogatzCsr(a[0], a[1], a[2], a[4]), a[3], new Random(a[4] + 1))
                : model === 'dw-mixed'
                  ? deffuant(a[0], a[1], a[2], a[3], a[4])
                  : null;
if (!result) throw new Error(`unknown model ${model}`);
process.stdout.write(`${JSON.stringify({ model, ...result })}\n`);
