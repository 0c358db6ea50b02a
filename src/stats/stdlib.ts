import { createRequire } from 'node:module';

// The @stdlib packages load 80–400 small files each (about a second together on a busy
// machine), so they are required on first use rather than imported: commands that never
// compute a statistic do not pay for them at start-up.
const load = createRequire(import.meta.url);

// Each export is typed by hand (the packages' own types cannot be named in declarations).
const cache = new Map<string, unknown>();

function lazy<F>(name: string): () => F {
  return () => {
    let f = cache.get(name);
    if (f === undefined) {
      f = load(name);
      cache.set(name, f);
    }
    return f as F;
  };
}

/** `@stdlib/math-base-special-betainc`, loaded on first use. */
export const stdBetainc: () => (x: number, a: number, b: number) => number = lazy(
  '@stdlib/math-base-special-betainc',
);
/** `@stdlib/math-base-special-gammainc`, loaded on first use. */
export const stdGammainc: () => (x: number, a: number, regularized?: boolean, upper?: boolean) => number =
  lazy('@stdlib/math-base-special-gammainc');
/** `@stdlib/math-base-special-gammaln`, loaded on first use. */
export const stdGammaln: () => (x: number) => number = lazy('@stdlib/math-base-special-gammaln');
/** `@stdlib/stats-base-dists-binomial-cdf`, loaded on first use. */
export const stdBinomialCdf: () => (x: number, n: number, p: number) => number = lazy(
  '@stdlib/stats-base-dists-binomial-cdf',
);
/** `@stdlib/stats-base-dists-normal-quantile`, loaded on first use. */
export const stdNormalQuantile: () => (p: number, mu: number, sigma: number) => number = lazy(
  '@stdlib/stats-base-dists-normal-quantile',
);
/** `@stdlib/stats-base-dists-t-cdf`, loaded on first use. */
export const stdTCdf: () => (x: number, v: number) => number = lazy('@stdlib/stats-base-dists-t-cdf');
/** `@stdlib/stats-base-dists-t-quantile`, loaded on first use. */
export const stdTQuantile: () => (p: number, v: number) => number = lazy(
  '@stdlib/stats-base-dists-t-quantile',
);
