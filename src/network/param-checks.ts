import { ConfigError } from '../core/index.ts';

/**
 * Parameter checks shared by the generators. Internal to the network module (not
 * re-exported): each throws a {@link ConfigError} whose message names the generator and the
 * parameter, and whose hint says what a valid value looks like.
 */

/** Largest node count a topology can hold (indices are stored in an Int32Array). */
export const MAX_NODES = 0x7ffffffe;

/** Checks that `value` is an integer in [min, max]. */
export function checkInt(
  generator: string,
  name: string,
  value: unknown,
  min: number,
  max: number,
  hint?: string,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === MAX_NODES || max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `in [${min}, ${max}]`;
    throw new ConfigError(`${generator}: ${name} must be an integer ${range}, got ${show(value)}`, {
      hint: hint ?? `set ${name} to an integer ${range}`,
    });
  }
  return value;
}

/** Checks that `value` is a probability: a finite number in [0, 1]. */
export function checkProbability(generator: string, name: string, value: unknown, hint?: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigError(`${generator}: ${name} must be a probability in [0, 1], got ${show(value)}`, {
      hint: hint ?? `set ${name} to a number between 0 and 1`,
    });
  }
  return value;
}

/** Checks a node count `n` (an integer >= `min`, small enough for Int32 indices). */
export function checkNodeCount(generator: string, value: unknown, min = 1): number {
  return checkInt(
    generator,
    'n',
    value,
    min,
    MAX_NODES,
    `set n to the number of agents (an integer >= ${min})`,
  );
}

/** Checks that the number of directed arcs (2 x edges) fits an Int32Array. */
export function checkEdgeBudget(generator: string, edges: number): void {
  if (2 * edges > MAX_NODES) {
    throw new ConfigError(`${generator}: ${edges} edges are too many for one topology`, {
      hint: 'use fewer agents or a lower degree (at most about 1 billion edges)',
    });
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
