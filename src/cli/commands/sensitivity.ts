import { ConfigError, checkBatchSize, formatNumber, formatPercent, UsageError } from '../../core/index.ts';
import { MAX_SWEEP_RUNS, MIN_BYTES_PER_PLANNED_RUN } from '../../sweep/index.ts';
import { type Observation, readTableFile, varianceDecomposition } from '../../validity/index.ts';
import { checkNetworkParamsApplied, parseAssignments, resolveParams, runWorld } from '../../world/index.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { intFlag, positiveIntFlag } from '../flags.ts';
import { loadWorld } from '../load-world.ts';

/** Options of `grapevine sensitivity`. */
export interface SensitivityCommandOptions {
  /** False with `--no-check`: a world file is not type-checked first. */
  check?: boolean;
  factor?: string[];
  replicates?: string;
  seed?: string;
  ticks?: string;
  metric?: string[];
  outcome?: string;
  json?: boolean;
}

function parseFactors(specs: readonly string[]): [string, string[]][] {
  return specs.map((s) => {
    const m = /^([^=]+)=(.+)$/.exec(s);
    const values = m?.[2].split(',').map((v) => v.trim());
    if (!m || !values || values.length < 2 || values.some((v) => v === ''))
      throw new UsageError(`--factor expects key=v1,v2[,...] with at least two values, got "${s}"`, {
        hint: 'e.g. --factor beta=0.1,0.3',
      });
    return [m[1].trim(), values];
  });
}

/** Every combination of the factors' levels (a full factorial design). */
function combinations(factors: [string, string[]][]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [k, vs] of factors) out = out.flatMap((c) => vs.map((v) => ({ ...c, [k]: v })));
  return out;
}

async function observeWorld(ref: string, o: SensitivityCommandOptions): Promise<Map<string, Observation[]>> {
  if (o.outcome !== undefined)
    throw new UsageError('--outcome names a column of a runs file', {
      hint: 'for a world, choose with --metric',
    });
  const factors = parseFactors(o.factor ?? []);
  if (factors.length === 0) throw new UsageError('sensitivity needs at least one --factor key=v1,v2');
  const replicates = positiveIntFlag('replicates', o.replicates) ?? 5;
  const seed = intFlag('seed', o.seed) ?? 1;
  const ticks = intFlag('ticks', o.ticks);
  const { def } = await loadWorld(ref, { check: o.check });
  if (def.needsLlm)
    throw new UsageError(`world "${def.id}" needs an LLM; sensitivity runs rule worlds in-process`, {
      hint: 'for LLM runs, record the outcomes and pass a CSV: grapevine sensitivity runs.csv --outcome y',
    });
  const out = new Map<string, Observation[]>();
  const cells = combinations(factors);
  checkBatchSize({
    count: cells.length * replicates,
    what: 'runs',
    from: `${cells.length} combinations × --replicates ${replicates}`,
    max: MAX_SWEEP_RUNS,
    bytesEach: MIN_BYTES_PER_PLANNED_RUN,
    hint: 'give fewer replicates or fewer factor levels',
  });
  const paramsOf = (cell: Record<string, string>) =>
    parseAssignments(Object.entries(cell).map(([k, v]) => `${k}=${v}`));
  // a factor the network ignores would vary nothing: refuse it before the first run
  for (const cell of cells)
    checkNetworkParamsApplied(
      def,
      paramsOf(cell),
      resolveParams(def, paramsOf(cell)),
      `--factor ${JSON.stringify(cell)}: `,
    );
  for (const cell of cells)
    for (let r = 0; r < replicates; r++) {
      const params = paramsOf(cell);
      const res = await runWorld(def, { params, seed: seed + r, ...(ticks === undefined ? {} : { ticks }) });
      for (const [metric, value] of Object.entries(res.metrics))
        out.set(metric, [...(out.get(metric) ?? []), { factors: cell, value }]);
    }
  return out;
}

function observeFile(path: string, o: SensitivityCommandOptions): Map<string, Observation[]> {
  if (!o.outcome)
    throw new UsageError('a runs file needs --outcome COLUMN', { hint: 'e.g. --outcome fraction' });
  const outcome = o.outcome;
  const obs = readTableFile(path, 'runs').map(({ line, fields }) => {
    const value = Number(fields[outcome]);
    if (!Number.isFinite(value))
      throw new ConfigError(
        `${path}:${line}: ${outcome} must be a number, got ${JSON.stringify(fields[outcome])}`,
        {
          hint: 'one row per run: factor columns, a seed column (ignored), the outcome column',
        },
      );
    const factors: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) if (k !== outcome && k !== 'seed') factors[k] = String(v);
    return { factors, value };
  });
  return new Map([[outcome, obs]]);
}

/**
 * `grapevine sensitivity <world|runs file>`: runs a rule world over a full factorial of
 * `--factor` levels × `--replicates` seeds (or reads recorded runs from a CSV/NDJSON) and
 * prints, per outcome metric, the share of variance of each factor, of the seed (noise
 * floor) and of interactions, with bootstrap CIs (docs/VALIDITY.md).
 */
export async function sensitivityCommand(
  input: string,
  o: SensitivityCommandOptions,
  out: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  const fromFile = /\.(csv|ndjson|jsonl)$/i.test(input);
  const seed = intFlag('seed', o.seed) ?? 1;
  const data = fromFile ? observeFile(input, o) : await observeWorld(input, o);
  const wanted = o.metric?.length ? o.metric : [...data.keys()];
  const results = wanted.map((metric) => {
    const obs = data.get(metric);
    if (!obs)
      throw new UsageError(`no outcome "${metric}"`, { hint: `choose from: ${[...data.keys()].join(', ')}` });
    return { metric, ...varianceDecomposition(obs, { seed, replicates: 1000 }) };
  });
  if (o.json) out.out(`${JSON.stringify(results)}\n`);
  else
    for (const r of results) {
      out.out(
        `${r.metric}: mean ${formatNumber(r.mean)}, variance ${formatNumber(r.variance)} over ${r.n} runs\n`,
      );
      const pct = (x: { estimate: number; lo: number; hi: number }) =>
        `${formatPercent(x.estimate)} [${formatPercent(x.lo)}, ${formatPercent(x.hi)}]`;
      for (const f of r.factors) out.out(`  ${f.factor.padEnd(20)} ${pct(f.share)}\n`);
      out.out(
        `  ${'seed (noise floor)'.padEnd(20)} ${pct(r.seed)}\n  ${'interactions'.padEnd(20)} ${pct(r.interaction)}\n`,
      );
    }
  return 0;
}
