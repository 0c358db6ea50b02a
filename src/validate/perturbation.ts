import { ConfigError, type Json, UsageError } from '../core/index.ts';
import { resolveParams } from '../world/index.ts';
import type { CaseDesign, ValidationCase } from './validation-case.ts';

/** `--perturb KEY=FACTOR`: every run of a case that reads KEY has it multiplied by FACTOR. */
export interface Perturbation {
  key: string;
  factor: number;
}

/** Parses `KEY=FACTOR` (a parameter name and a finite positive number). */
export function parsePerturbation(text: string): Perturbation {
  const m = /^([A-Za-z_][\w-]*)=(.+)$/.exec(text.trim());
  const factor = m ? Number(m[2]) : Number.NaN;
  if (!m || !Number.isFinite(factor) || factor <= 0)
    throw new UsageError(`--perturb expects KEY=FACTOR with a positive number, got "${text}"`, {
      hint: 'e.g. --perturb beta=1.05 (every case that reads beta runs with beta × 1.05)',
    });
  return { key: m[1], factor };
}

/** The case's parameters with the perturbed key multiplied. */
export function perturbParams(params: Record<string, Json>, p: Perturbation): Record<string, Json> {
  const v = params[p.key];
  if (typeof v !== 'number') return params;
  return { ...params, [p.key]: v * p.factor };
}

/** Whether `--perturb` concerns this case: it lists the key among the parameters its prediction reads. */
export function readsKey(c: ValidationCase, key: string): boolean {
  return c.reads.includes(key) && typeof c.params[key] === 'number';
}

/**
 * The perturbed parameters of a case, checked against its world's schema before anything
 * runs (a factor that leaves the allowed range is a usage error, not a failed case).
 */
export function checkedPerturbation(c: ValidationCase, p: Perturbation): Record<string, Json> {
  const params = perturbParams(c.params, p);
  try {
    resolveParams(c.world, params);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new UsageError(`--perturb ${p.key}=${p.factor} gives case ${c.id} invalid parameters: ${why}`, {
      hint: 'choose a factor that keeps the parameter within the range its world accepts',
    });
  }
  return params;
}

/**
 * The design of a case with its deviation replaced by the perturbation's effect, as the case's
 * own theory predicts it at the perturbed parameters; null for `exact` cases (their
 * reference follows each run, so no power is computed).
 */
export function perturbedDesign(c: ValidationCase, base: CaseDesign, p: Perturbation): CaseDesign | null {
  if (base.test === 'exact') return null;
  const moved = c.design(perturbParams(c.params, p));
  return {
    ...base,
    deviation: { label: `${p.key} × ${p.factor}`, mean: moved.predicted, sd: moved.sd },
  };
}

/** The keys `--perturb` can act on, for the error that no case reads the one asked for. */
export function perturbableKeys(cases: readonly ValidationCase[]): string[] {
  const keys = new Set<string>();
  for (const c of cases) for (const k of c.reads) if (typeof c.params[k] === 'number') keys.add(k);
  return [...keys].sort();
}

/** Refuses a perturbation no chosen case reads. */
export function requireReaders(cases: readonly ValidationCase[], p: Perturbation): ValidationCase[] {
  const readers = cases.filter((c) => readsKey(c, p.key));
  if (readers.length === 0)
    throw new ConfigError(`--perturb ${p.key}: no validation case reads "${p.key}"`, {
      hint: `keys the cases read: ${perturbableKeys(cases).join(', ')}`,
    });
  return readers;
}
