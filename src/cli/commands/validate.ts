import {
  batteryPassed,
  FAMILY_ALPHA,
  formatBattery,
  parsePerturbation,
  runBattery,
  type ValidationCase,
  type ValidationRow,
} from '../../validate/index.ts';
import { intFlag } from '../flags.ts';
import { checkOutputFile, writeOutputText } from '../output-file.ts';
import { worldFileCases } from './validate/world-cases.ts';

/** Options of `grapevine validate`. */
export interface ValidateOptions {
  quick?: boolean;
  json?: boolean;
  only?: string;
  seed?: string;
  out?: string;
  perturb?: string;
  /** `--world FILE`: run the file's own `validationCases` instead of the built-in ones. */
  world?: string;
  /** False with `--no-check`: the `--world` file is not type-checked first. */
  check?: boolean;
  /** Replace an existing --out file. */
  force?: boolean;
}

function progress(r: ValidationRow): string {
  const p = r.perturbation;
  if (!p) return `${r.pass ? 'pass' : 'FAIL'} ${r.id}\n`;
  return `${p.detected ? 'detected' : 'missed'} ${r.id} (expected power ${p.expectedPower?.toFixed(3) ?? 'n/a'})\n`;
}

function summary(rows: readonly ValidationRow[], passed: boolean): string {
  if (!rows.some((r) => r.perturbation)) {
    const failed = rows.filter((r) => !r.pass).length;
    return `${rows.length - failed}/${rows.length} cases pass`;
  }
  const must = rows.filter((r) => r.perturbation?.mustDetect);
  const caught = must.filter((r) => r.perturbation?.detected).length;
  return `${caught}/${must.length} cases that must detect the perturbation did${passed ? '' : ' (some missed it)'}`;
}

/**
 * `grapevine validate`: runs the validation battery (the built-in cases, handed in by the CLI
 * entry since src/ never imports worlds/, or with `--world FILE` that file's own cases), prints the table (or JSON with --json, also written to
 * --out), and returns 1 if any case fails. With `--perturb KEY=FACTOR` it runs the cases that
 * read KEY with KEY multiplied by FACTOR and returns 1 if a case whose power says it must
 * detect that change passes.
 */
export async function validateCommand(
  o: ValidateOptions,
  builtin: () => Promise<readonly ValidationCase[]>,
): Promise<number> {
  // every flag, and a world file's cases, are checked before the battery runs (it may take minutes)
  const seed = intFlag('seed', o.seed) ?? 1;
  if (o.out !== undefined) checkOutputFile(o.out, o.force);
  const perturb = o.perturb === undefined ? undefined : parsePerturbation(o.perturb);
  const cases = o.world === undefined ? await builtin() : await worldFileCases(o.world, { check: o.check });
  const rows = await runBattery(cases, {
    quick: o.quick,
    only: o.only,
    seed,
    perturb,
    onCase: o.json ? undefined : (r) => process.stderr.write(progress(r)),
  });
  const passed = batteryPassed(rows);
  const report = {
    quick: Boolean(o.quick),
    seed,
    familyAlpha: FAMILY_ALPHA,
    alphaPerCase: rows[0]?.alpha ?? FAMILY_ALPHA,
    ...(perturb ? { perturb } : {}),
    passed,
    cases: rows,
  };
  const json = JSON.stringify(report, null, 2);
  if (o.out) await writeOutputText(o.out, `${json}\n`, o.force);
  process.stdout.write(o.json ? `${json}\n` : `${formatBattery(rows)}\n${summary(rows, passed)}\n`);
  return passed ? 0 : 1;
}
