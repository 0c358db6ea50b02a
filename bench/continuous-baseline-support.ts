/**
 * What bench/continuous-baseline.ts builds its models on: a small seeded generator and two
 * network generators into CSR arrays, written as plainly as a modeller would.
 */

/** A seeded 32-bit generator (mulberry32), uniform doubles from two draws. */
export class Random {
  private s: number;

  constructor(seed: number) {
    this.s = (seed * 0x9e3779b9) >>> 0;
  }

  private u32(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1) with 53 bits. */
  next(): number {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Exponential with the given rate. */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
}

/** An undirected graph: the neighbours of i are neighbours[offsets[i] .. offsets[i + 1]). */
export interface Csr {
  offsets: Int32Array;
  neighbours: Int32Array;
}

function toCsr(n: number, from: Int32Array, to: Int32Array, m: number): Csr {
  const offsets = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    offsets[from[e] + 1]++;
    offsets[to[e] + 1]++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, n);
  const neighbours = new Int32Array(2 * m);
  for (let e = 0; e < m; e++) {
    neighbours[fill[from[e]]++] = to[e];
    neighbours[fill[to[e]]++] = from[e];
  }
  return { offsets, neighbours };
}

/** G(n, p) with p = c/(n − 1), by geometric skipping over the pairs (Batagelj & Brandes 2005). */
export function erdosRenyiCsr(n: number, c: number, seed: number): Csr {
  const rnd = new Random(seed * 7 + 3);
  const p = c / (n - 1);
  const cap = Math.ceil(n * c * 0.5 + 10 * Math.sqrt(n * c) + 16);
  let from = new Int32Array(cap);
  let to = new Int32Array(cap);
  let m = 0;
  const logq = Math.log(1 - p);
  let v = 1;
  let w = -1;
  while (v < n) {
    w += 1 + Math.floor(Math.log(1 - rnd.next()) / logq);
    while (w >= v && v < n) {
      w -= v;
      v++;
    }
    if (v < n) {
      if (m === from.length) {
        from = Int32Array.from({ length: m * 2 }, (_, k) => (k < m ? from[k] : 0));
        to = Int32Array.from({ length: m * 2 }, (_, k) => (k < m ? to[k] : 0));
      }
      from[m] = v;
      to[m++] = w;
    }
  }
  return toCsr(n, from, to, m);
}

/** Watts–Strogatz: a ring where each agent links its k/2 next agents, each link rewired with probability beta. */
export function wattsStrogatzCsr(n: number, k: number, beta: number, seed: number): Csr {
  const rnd = new Random(seed * 11 + 5);
  const half = k >> 1;
  const m = n * half;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const seen = new Set<number>();
  let e = 0;
  for (let i = 0; i < n; i++)
    for (let s = 1; s <= half; s++) {
      let j = (i + s) % n;
      if (rnd.next() < beta) {
        do j = rnd.int(n);
        while (j === i || seen.has(Math.min(i, j) * n + Math.max(i, j)));
      }
      seen.add(Math.min(i, j) * n + Math.max(i, j));
      from[e] = i;
      to[e++] = j;
    }
  return toCsr(n, from, to, e);
}
