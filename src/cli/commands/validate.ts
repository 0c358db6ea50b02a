import { formatBattery, runBattery, type ValidationCase } from '../../validate/index.ts';
import { intFlag } from '../flags.ts';
import { checkOutputFile, writeOutputText } from '../output-file.ts';

/** Options of `grapevine validate`. */
export interface ValidateOptions {
  quick?: boolean;
  json?: boolean;
  only?: string;
  seed?: string;
  out?: string;
  /** Replace an existing --out file. */
  force?: boolean;
}

/**
 * `grapevine validate`: runs the validation battery (`cases`, handed in by the CLI entry,
 * since src/ never imports worlds/), prints the table (or JSON with --json, also written to
 * --out), and returns 1 if any case fails.
 */
export async function validateCommand(o: ValidateOptions, cases: readonly ValidationCase[]): Promise<number> {
  // every flag is checked before the battery runs (it may take minutes)
  const seed = intFlag('seed', o.seed) ?? 1;
  if (o.out !== undefined) checkOutputFile(o.out, o.force);
  const rows = await runBattery(cases, {
    quick: o.quick,
    only: o.only,
    seed,
    onCase: o.json ? undefined : (r) => process.stderr.write(`${r.pass ? 'pass' : 'FAIL'} ${r.id}\n`),
  });
  const failed = rows.filter((r) => !r.pass).length;
  const json = JSON.stringify({ quick: Boolean(o.quick), seed, passed: failed === 0, cases: rows }, null, 2);
  if (o.out) await writeOutputText(o.out, `${json}\n`, o.force);
  process.stdout.write(
    o.json ? `${json}\n` : `${formatBattery(rows)}\n${rows.length - failed}/${rows.length} cases pass\n`,
  );
  return failed === 0 ? 0 : 1;
}
