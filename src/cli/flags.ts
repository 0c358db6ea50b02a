import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../core/index.ts';

/**
 * Parses a non-negative integer flag (at most 2^53 - 1, so that it survives JSON and
 * arithmetic exactly). `undefined` stays `undefined`.
 *
 * @throws UsageError (exit 2) naming the flag and the value.
 */
export function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--${name} must be a non-negative integer up to 2^53-1, got "${value}"`, {
      hint: `give a whole number, e.g. --${name} 10`,
    });
  return Number(value);
}

/** Like {@link intFlag}, and at least 1. */
export function positiveIntFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || !(Number(value) >= 1) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--${name} must be a positive integer, got "${value}"`, {
      hint: `give a whole number of at least 1, e.g. --${name} 10`,
    });
  return Number(value);
}

/**
 * Checks a number that came from a config file (seed, ticks): a non-negative safe
 * integer, not a string or a fraction.
 *
 * @throws UsageError naming the field and the value.
 */
export function configInt(name: string, value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new UsageError(`${where}: ${name} must be a non-negative integer, got ${JSON.stringify(value)}`, {
      hint: `write e.g. "${name}": 10`,
    });
  return value;
}

/**
 * Checks early that `--out` can be created: its nearest existing ancestor is a directory,
 * and the path itself is not a directory.
 *
 * @throws UsageError naming the path.
 */
export function checkOutPath(out: string): void {
  if (out === '') throw new UsageError('--out must not be empty');
  if (existsSync(out) && statSync(out).isDirectory())
    throw new UsageError(`--out ${out} is a directory`, { hint: 'give the path of a log file' });
  let dir = dirname(resolve(out));
  while (!existsSync(dir)) dir = dirname(dir);
  if (!statSync(dir).isDirectory())
    throw new UsageError(`--out ${out} cannot be created: ${dir} is a file, not a directory`, {
      hint: 'choose another --out',
    });
}
