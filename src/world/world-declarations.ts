/**
 * What a world declares about itself beyond its parameter schema and its code, so that
 * the engine never guesses from names: which parameters are read only when the world is
 * built, which are file paths, and what each per-tick metric means.
 */

/** What kind of number a metric is. */
export type MetricKind = 'count' | 'share' | 'mean' | 'state-count' | 'value';

/** The meaning of one per-tick metric (a key of what `metrics(view)` returns). */
export interface MetricSpec {
  /** What the number is, in a few words: a legend entry, e.g. `believers`. */
  label: string;
  /** Its unit, e.g. `agents`, `share of agents`, `opinion`: the y-axis title. */
  unit?: string;
  /**
   * `count` (of agents or events), `share` (0..1), `mean` (over agents), `state-count` (the
   * agents in `state` of `region`: drawn in that state's colour everywhere) or `value`.
   */
  kind: MetricKind;
  /** For `state-count`: the statechart region counted. */
  region?: string;
  /** For `state-count`: the state of `region` counted. */
  state?: string;
  /** The knowledge item it is about, if any (e.g. `misinfo`). */
  item?: string;
  /** Metrics of one group share a figure, titled by the group; a metric without one has its own. */
  group?: string;
}

/** A world's metrics and their meaning, by metric key. */
export type MetricDeclarations = Readonly<Record<string, MetricSpec>>;

/** A parameter that names a file the world reads. */
export interface FileParamSpec<P = Record<string, unknown>> {
  /** Whether the run reads the file under these parameters (default: whenever the path is not empty). */
  readWhen?(params: P): boolean;
  /** The setting under which it is read, for messages (e.g. `network=csv`). */
  needs?: string;
  /** The file gives the network, and so the population: `n` and the network parameters are then not applied. */
  network?: boolean;
  /** Other parameters the file makes unused when it is read. */
  replaces?: readonly string[];
}

/** File parameters of a world, by parameter name. */
export type FileParamDeclarations<P = Record<string, unknown>> = {
  readonly [K in keyof P]?: FileParamSpec<P>;
};

const KINDS: readonly MetricKind[] = ['count', 'share', 'mean', 'state-count', 'value'];

function metricProblems(metrics: unknown): string[] {
  if (metrics === undefined) return [];
  if (typeof metrics !== 'object' || metrics === null)
    return ['`metrics` must be an object { key: { label, kind, ... } }'];
  const problems: string[] = [];
  for (const [key, spec] of Object.entries(metrics as Record<string, unknown>)) {
    const s = spec as Partial<MetricSpec> | null;
    if (typeof s !== 'object' || s === null || typeof s.label !== 'string' || s.label.trim() === '')
      problems.push(`metric "${key}" needs a label (a non-empty string)`);
    else if (!KINDS.includes(s.kind as MetricKind))
      problems.push(`metric "${key}": kind must be one of ${KINDS.join(', ')}`);
    else if (s.kind === 'state-count' && (typeof s.region !== 'string' || typeof s.state !== 'string'))
      problems.push(`metric "${key}" counts a state: give its region and state`);
  }
  return problems;
}

/**
 * The problems of a world's declarations, one sentence each: names that are not parameters
 * of its schema, file parameters whose `readWhen` is not a function, metrics without a
 * label or kind.
 */
export function declarationProblems(d: Record<string, unknown>, paramNames: readonly string[]): string[] {
  const problems: string[] = [];
  const known = new Set(paramNames);
  const fixed = d.fixedAtCreation;
  if (fixed !== undefined) {
    if (!Array.isArray(fixed)) problems.push('`fixedAtCreation` must be a list of parameter names');
    else
      for (const k of fixed)
        if (!known.has(k)) problems.push(`\`fixedAtCreation\` names "${k}", which is not a parameter`);
  }
  const files = d.fileParams;
  if (files !== undefined) {
    if (typeof files !== 'object' || files === null)
      problems.push('`fileParams` must be an object { param: { ... } }');
    else
      for (const [k, f] of Object.entries(files as Record<string, FileParamSpec>)) {
        if (!known.has(k)) problems.push(`\`fileParams\` names "${k}", which is not a parameter`);
        if (f?.readWhen !== undefined && typeof f.readWhen !== 'function')
          problems.push(`\`fileParams.${k}.readWhen\` must be a function (params) => boolean`);
      }
  }
  return [...problems, ...metricProblems(d.metrics)];
}
