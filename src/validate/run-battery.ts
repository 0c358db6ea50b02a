import { ConfigError } from '../core/index.ts';
import { replicateStats } from './sampling-tolerance.ts';
import type { ValidationCase, ValidationOutcome } from './validation-case.ts';

/** One row of a battery's report. */
export interface ValidationRow extends ValidationOutcome {
  id: string;
  model: string;
  setting: string;
  source: string;
  /** Mean of the replicates and its 95% half-width. */
  mean: number;
  ci: number;
  replicates: number;
}

/** Options of {@link runBattery}. */
export interface BatteryOptions {
  /** Only the quick cases, with fewer replicates. */
  quick?: boolean;
  /** Only the case with this id. */
  only?: string;
  /** Base seed (default 1). */
  seed?: number;
  /** Replicates per case (default 5 quick, 12 full). */
  replicates?: number;
  /** Called after each case. */
  onCase?: (row: ValidationRow) => void;
}

/** Runs validation cases one after the other and reports each against its prediction. */
export async function runBattery(
  cases: readonly ValidationCase[],
  o: BatteryOptions = {},
): Promise<ValidationRow[]> {
  let chosen = o.quick ? cases.filter((c) => c.quick) : [...cases];
  if (o.only !== undefined) {
    chosen = cases.filter((c) => c.id === o.only);
    if (chosen.length === 0)
      throw new ConfigError(`no validation case "${o.only}"`, {
        hint: `cases: ${cases.map((c) => c.id).join(', ')}`,
      });
  }
  const replicates = o.replicates ?? (o.quick ? 5 : 12);
  const rows: ValidationRow[] = [];
  for (const c of chosen) {
    const out = await c.run({ seed: o.seed ?? 1, replicates });
    const { mean, half } = replicateStats(out.observed);
    const row = {
      id: c.id,
      model: c.model,
      setting: c.setting,
      source: c.source,
      ...out,
      mean,
      ci: half,
      replicates: out.observed.length,
    };
    rows.push(row);
    o.onCase?.(row);
  }
  return rows;
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(4) : String(x);
}

/** The report as a plain-text table: case, setting, predicted, observed mean ± 95% CI, replicates, agents, pass/fail. */
export function formatBattery(rows: readonly ValidationRow[]): string {
  const head = ['case', 'setting', 'predicted', 'observed (95% CI)', 'tol', 'reps', 'agents', 'result'];
  const body = rows.map((r) => [
    r.id,
    r.setting,
    fmt(r.predicted),
    `${fmt(r.mean)} ± ${fmt(r.ci)}`,
    fmt(r.tolerance),
    String(r.replicates),
    String(r.agents),
    r.pass ? 'pass' : 'FAIL',
  ]);
  const widths = head.map((h, k) => Math.max(h.length, ...body.map((b) => b[k].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, k) => c.padEnd(widths[k]))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
