import { ConfigError } from './errors.ts';

/** Keys that would reach an object's prototype instead of its own fields. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** How deep and how large a value read from outside (a file, a message, a flag) may be. */
export interface JsonShapeLimits {
  /** Most levels of nested arrays and objects (default {@link MAX_JSON_DEPTH}). */
  maxDepth?: number;
  /** Most values in all, containers and leaves (default {@link MAX_JSON_NODES}). */
  maxNodes?: number;
}

/**
 * Most levels of nesting in parameters, interventions, sweep files and queue messages: far
 * above anything a world's parameters use, far below what recursion in the checks, in zod
 * or in canonical JSON would overflow the stack at.
 */
export const MAX_JSON_DEPTH = 64;

/** Most values in one such input (a 4 MiB file of small numbers holds about 2 million). */
export const MAX_JSON_NODES = 2_000_000;

/** What is wrong with a value's shape, and where. */
export interface JsonShapeProblem {
  /** `depth`, `size` or `unsafe-key`. */
  kind: 'depth' | 'size' | 'unsafe-key';
  /** A path such as `params.a[3].b` (from the `where` given). */
  path: string;
  message: string;
}

/**
 * The first problem of a value's shape, or undefined: nesting deeper than `maxDepth`, more
 * than `maxNodes` values, or a key that names an object's prototype (`__proto__`,
 * `constructor`, `prototype`). Iterative, so that a value nested a million levels deep is
 * refused rather than overflowing the stack.
 */
export function jsonShapeProblem(
  value: unknown,
  where: string,
  limits: JsonShapeLimits = {},
): JsonShapeProblem | undefined {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const maxNodes = limits.maxNodes ?? MAX_JSON_NODES;
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: where, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (++nodes > maxNodes)
      return { kind: 'size', path: where, message: `${where} holds more than ${maxNodes} values` };
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth)
      return { kind: 'depth', path, message: `${path} is nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--)
        stack.push({ v: v[k], path: `${path}[${k}]`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k];
      if (UNSAFE_KEYS.has(key))
        return { kind: 'unsafe-key', path, message: `${path}: the key "${key}" is not allowed` };
      stack.push({ v: (v as Record<string, unknown>)[key], path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Refuses a value whose shape {@link jsonShapeProblem} finds wrong.
 * @throws ConfigError (exit 2) with one line naming where.
 */
export function checkJsonShape(value: unknown, where: string, limits: JsonShapeLimits = {}): void {
  const problem = jsonShapeProblem(value, where, limits);
  if (!problem) return;
  const hint =
    problem.kind === 'unsafe-key'
      ? 'parameter and intervention names cannot be __proto__, constructor or prototype'
      : 'flatten the value or split it; such input is refused before it is used';
  throw new ConfigError(problem.message, { hint });
}
