/** What one validation case observed against its published prediction. */
export interface ValidationOutcome {
  /** The published analytic value. */
  predicted: number;
  /** One value per replicate. */
  observed: number[];
  /** Population size used. */
  agents: number;
  /** Half-width of the pass band around `predicted`. */
  tolerance: number;
  /** How the tolerance was derived (sampling error, finite size), never tuned. */
  toleranceRule: string;
  pass: boolean;
}

/** One case of `grapevine validate`: a model in its classic setting against its published result. */
export interface ValidationCase {
  /** E.g. `maki-thompson-well-mixed`. */
  id: string;
  /** E.g. `Maki–Thompson (1973)`. */
  model: string;
  /** E.g. `well-mixed, n=20000, async, 1 spreader`. */
  setting: string;
  /** The citation (also in docs/VALIDATION.md). */
  source: string;
  /** Part of `grapevine validate --quick`. */
  quick: boolean;
  run(opts: { seed: number; replicates: number }): Promise<ValidationOutcome>;
}
