import { createRequire } from 'node:module';

// The @stdlib packages load 80–400 small files each (about a second together on a busy
// machine), so they are required on first use rather than imported: commands that never
// compute a statistic do not pay for them at start-up.
const load = createRequire(import.meta.url);

type BetaInc = typeof import('@stdlib/math-base-special-betainc');
type GammaInc = typeof import('@stdlib/math-base-special-gammainc');
type GammaLn = typeof import('@stdlib/math-base-special-gammaln');
type BinomialCdf = typeof import('@stdlib/stats-base-dists-binomial-cdf');
type NormalQuantile = typeof import('@stdlib/stats-base-dists-normal-quantile');
type TCdf = typeof import('@stdlib/stats-base-dists-t-cdf');
type TQuantile = typeof import('@stdlib/stats-base-dists-t-quantile');

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
export const stdBetainc = lazy<BetaInc>('@stdlib/math-base-special-betainc');
/** `@stdlib/math-base-special-gammainc`, loaded on first use. */
export const stdGammainc = lazy<GammaInc>('@stdlib/math-base-special-gammainc');
/** `@stdlib/math-base-special-gammaln`, loaded on first use. */
export const stdGammaln = lazy<GammaLn>('@stdlib/math-base-special-gammaln');
/** `@stdlib/stats-base-dists-binomial-cdf`, loaded on first use. */
export const stdBinomialCdf = lazy<BinomialCdf>('@stdlib/stats-base-dists-binomial-cdf');
/** `@stdlib/stats-base-dists-normal-quantile`, loaded on first use. */
export const stdNormalQuantile = lazy<NormalQuantile>('@stdlib/stats-base-dists-normal-quantile');
/** `@stdlib/stats-base-dists-t-cdf`, loaded on first use. */
export const stdTCdf = lazy<TCdf>('@stdlib/stats-base-dists-t-cdf');
/** `@stdlib/stats-base-dists-t-quantile`, loaded on first use. */
export const stdTQuantile = lazy<TQuantile>('@stdlib/stats-base-dists-t-quantile');
