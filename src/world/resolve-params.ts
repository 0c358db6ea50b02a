import { z } from 'zod';
import { ConfigError, checkJsonShape, UNSAFE_KEYS } from '../core/index.ts';
import type { WorldDefinition } from './define-world.ts';

/**
 * Parses a `--set key=value` value: JSON when it parses (numbers, booleans, arrays,
 * objects, quoted strings), the raw text otherwise.
 */
export function parseSetValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Refuses a value (parameters, an intervention) holding a key that names an object's
 * prototype (`__proto__`, `constructor`, `prototype`) at any depth, nested deeper than
 * `MAX_JSON_DEPTH` levels, or holding more than `MAX_JSON_NODES` values: such a
 * key would bypass the parameter checks or be dropped silently, and such depth would
 * overflow the stack of the checks after it.
 *
 * @throws ConfigError naming where the problem is.
 */
export function rejectUnsafeKeys(value: unknown, where: string): void {
  checkJsonShape(value, where);
}

/** Turns `["k=v", "a.b=2"]` into a nested object. */
export function parseAssignments(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new ConfigError(`--set expects key=value, got "${pair}"`, {
        hint: 'e.g. --set n=1000 --set model=maki-thompson',
      });
    const path = pair.slice(0, eq).split('.');
    for (const key of path)
      if (UNSAFE_KEYS.has(key) || key === '')
        throw new ConfigError(`--set ${pair.slice(0, eq)}: "${key}" is not a parameter name`, {
          hint: 'e.g. --set n=1000; names cannot be empty, __proto__, constructor or prototype',
        });
    rejectUnsafeKeys(parseSetValue(pair.slice(eq + 1)), `--set ${pair.slice(0, eq)}`);
    let node = out;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = parseSetValue(pair.slice(eq + 1));
  }
  return out;
}

/** One line per parameter of a world (or of any object holding a `params` schema): name, type, default, description. */
export function describeParams(
  def: Pick<WorldDefinition, 'params'>,
): { name: string; type: string; default: unknown; description: string }[] {
  return Object.entries(def.params.shape).map(([name, schema]) => {
    const s = schema as z.ZodType;
    const json = z.toJSONSchema(s, { unrepresentable: 'any', io: 'input' }) as {
      type?: string;
      enum?: unknown[];
      default?: unknown;
    };
    const type = json.enum ? json.enum.join('|') : (json.type ?? 'any');
    return { name, type, default: json.default, description: s.description ?? '' };
  });
}

/**
 * Validates raw parameters against a world's schema and fills in defaults. Unknown keys
 * and ill-typed values are {@link ConfigError}s naming the parameter.
 */
export function resolveParams(def: WorldDefinition, raw: Record<string, unknown>): Record<string, unknown> {
  rejectUnsafeKeys(raw, `parameters of world "${def.id}"`);
  const known = Object.keys(def.params.shape);
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) {
      throw new ConfigError(`unknown parameter "${key}" for world "${def.id}"`, {
        hint: `parameters: ${known.join(', ')} (see: grapevine worlds)`,
      });
    }
  }
  const result = def.params.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue.path.join('.') || '(parameters)';
    const got = issue.path.length ? JSON.stringify(getPath(raw, issue.path)) : '';
    throw new ConfigError(
      `parameter "${name}" of world "${def.id}": ${issue.message}${got ? ` (got ${got})` : ''}`,
      {
        hint: 'see the parameter list with: grapevine worlds',
      },
    );
  }
  return withEnumLiterals(def.params.shape, result.data as Record<string, unknown>);
}

/**
 * Replaces each enum parameter's value by the schema's own string (equal, but internalised
 * by V8 as a source literal). A value cut from `--set model=maki-thompson` or parsed from a
 * file is a fresh string: each `params.model === 'daley-kendall'` of a step then compares
 * characters in a runtime call (~3% of a rumour run's CPU at 10^5) instead of pointers.
 */
function withEnumLiterals(shape: z.ZodRawShape, data: Record<string, unknown>): Record<string, unknown> {
  for (const [key, schema] of Object.entries(shape)) {
    const value = data[key];
    if (typeof value !== 'string') continue;
    const options = enumOptions(schema);
    const literal = options?.find((o) => o === value);
    if (literal !== undefined) data[key] = literal;
  }
  return data;
}

/** The string options of an enum schema, through defaults and optionals (else undefined). */
function enumOptions(schema: z.core.$ZodType): readonly unknown[] | undefined {
  let s: z.core.$ZodType | undefined = schema;
  for (let depth = 0; s && depth < 4; depth++) {
    if (s instanceof z.ZodEnum) return s.options;
    const def = s._zod.def as { innerType?: z.core.$ZodType };
    s = def.innerType;
  }
  return undefined;
}

function getPath(obj: unknown, path: readonly PropertyKey[]): unknown {
  let node = obj;
  for (const k of path) node = (node as Record<PropertyKey, unknown> | undefined)?.[k];
  return node;
}

/**
 * The parameters a log recorded with `fromVersion` of a world, for this version of it:
 * unchanged for the same version, else through the world's `migrateParams` hook.
 *
 * @throws ConfigError when the versions differ and the world has no `migrateParams`.
 */
export function migrateRecordedParams(
  def: WorldDefinition,
  params: Record<string, unknown>,
  fromVersion: string,
): Record<string, unknown> {
  if (fromVersion === def.version) return params;
  if (!def.migrateParams)
    throw new ConfigError(`the log was written by ${def.id}@${fromVersion}, this is ${def.version}`, {
      hint: 'replay with the grapevine version that wrote the log',
    });
  return def.migrateParams(params, fromVersion);
}
