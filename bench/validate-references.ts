/**
 * Measures, with the independent reference simulations of test/validate/references/, the
 * finite-size quantities that some validation cases fix in their definitions (a per-run sd,
 * a bias budget, a qualifying probability). Prints one line per quantity; the constants in
 * worlds/ * /validation files quote these figures, and the tests re-check them on fewer runs.
 *
 *   npx tsx bench/validate-references.ts [runs-multiplier]
 */

import { deffuantReference, majorGroups } from '../test/validate/references/opinion-reference.ts';
import {
  gnp,
  percolatedComponent,
  perEdgeSirFinalSize,
  wattsCascade,
} from '../test/validate/references/random-graph-reference.ts';
import { meanSd, ReferenceRng } from '../test/validate/references/reference-rng.ts';
import { sirGillespie } from '../test/validate/references/sir-reference.ts';
import { curveCentre, perEdgeMajorProbability, transmissibility } from '../worlds/epidemic/theory.ts';
import {
  giantComponentVariance,
  giantFraction,
  wattsCascadeProbability,
  wattsCascadeSize,
} from '../worlds/rumor/theory.ts';

const scale = Number(process.argv[2] ?? 1);
const line = (label: string, xs: number[], extra = '') => {
  const { mean, sd, se } = meanSd(xs);
  console.log(
    `${label}: runs ${xs.length} mean ${mean.toFixed(5)} ± ${se.toFixed(5)} sd ${sd.toFixed(5)} ${extra}`,
  );
};

function watts(n: number, z: number, phi: number, runs: number): void {
  const rng = new ReferenceRng(7 + z * 100);
  const sizes: number[] = [];
  let cascades = 0;
  for (let k = 0; k < runs; k++) {
    const adj = gnp(n, z / (n - 1), rng);
    const s = wattsCascade(adj, rng.int(n), phi) / n;
    if (s > 0.1) {
      cascades++;
      sizes.push(s);
    }
  }
  console.log(
    `watts n=${n} z=${z}: P(>10%) ${(cascades / runs).toFixed(4)} (theory ${wattsCascadeProbability(z, phi).toFixed(4)}, runs ${runs})`,
  );
  if (sizes.length > 1)
    line(`watts n=${n} z=${z} size`, sizes, `theory ${wattsCascadeSize(z, phi).toFixed(5)}`);
}

function ic(n: number, c: number, p: number, runs: number): void {
  const rng = new ReferenceRng(11);
  const xs: number[] = [];
  let took = 0;
  for (let k = 0; k < runs; k++) {
    const size = percolatedComponent(gnp(n, c / (n - 1), rng), rng.int(n), p, rng);
    if (p * c < 1) xs.push(Math.min(size, 100));
    else if (size > Math.sqrt(n)) {
      took++;
      xs.push(size / n);
    }
  }
  const extra =
    p * c > 1 ? `took off ${(took / runs).toFixed(4)} theory S ${giantFraction(p * c).toFixed(5)}` : '';
  line(`independent cascade n=${n} pc=${p * c}`, xs, extra);
}

function perEdge(n: number, c: number, tau: number, gamma: number, runs: number): void {
  const rng = new ReferenceRng(23);
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) {
    const size = perEdgeSirFinalSize(gnp(n, c / (n - 1), rng), rng.int(n), tau, gamma, rng);
    if (size >= n / 10) xs.push(size / n);
  }
  const m = c * transmissibility({ tau, gamma });
  const { sd } = meanSd(xs);
  const ratio = sd ** 2 / (giantComponentVariance(m) / n);
  line(
    `per-edge SIR n=${n} c=${c} τ=${tau} γ=${gamma}`,
    xs,
    `major ${(xs.length / runs).toFixed(4)} (n → ∞ ${perEdgeMajorProbability(c, tau, gamma).toFixed(4)}) theory S ${giantFraction(m).toFixed(5)} variance ratio to G(n, cT/n) ${ratio.toFixed(3)}`,
  );
}

function sir(n: number, a: number, g: number, i0: number, runs: number): void {
  const rng = new ReferenceRng(13);
  const centre: number[] = [];
  for (let k = 0; k < runs; k++) centre.push(curveCentre(sirGillespie(n, a, g, i0, 400, rng)));
  line(`sir centre n=${n} a=${a} γ=${g} i0=${i0}`, centre);
}

function sirEarly(n: number, a: number, g: number, i0: number, t: number, runs: number): void {
  const rng = new ReferenceRng(17);
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) xs.push(sirGillespie(n, a, g, i0, t, rng)[t] / i0);
  line(`sir I(${t})/I0 n=${n} a=${a} γ=${g} i0=${i0}`, xs);
}

function deffuant(n: number, eps: number, runs: number): void {
  const rng = new ReferenceRng(19);
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) xs.push(majorGroups(deffuantReference(n, eps, 0.5, 1e-3, rng), 0.01, 0.1));
  line(`deffuant n=${n} ε=${eps} major clusters`, xs);
}

watts(5000, 2, 0.18, 20_000 * scale);
watts(5000, 4, 0.18, 20_000 * scale);
watts(5000, 0.5, 0.18, 5_000 * scale);
watts(5000, 10, 0.18, 5_000 * scale);
ic(5000, 4, 0.5, 5_000 * scale);
ic(5000, 4, 0.2, 40_000 * scale);
perEdge(5000, 4, 1, 1, 20_000 * scale);
sir(2000, 0.4, 0.2, 40, 4_000 * scale);
sir(2000, 0.44, 0.22, 40, 4_000 * scale);
sirEarly(10_000, 0.4, 0.2, 100, 10, 4_000 * scale);
sirEarly(10_000, 0.44, 0.22, 100, 10, 4_000 * scale);
deffuant(200, 0.2, 2_000 * scale);
deffuant(200, 0.15, 1_000 * scale);
