import { z } from 'zod';
import type { Json } from '../../../src/index.ts';

/** A parse of a reply text. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Which repair prompt reads a bad reply, and what it is told. */
export interface RepairSpec {
  template: 'repair-json' | 'repair-script';
  /** The format instructions the first call carried. */
  format: string;
  /** The two characters (repair-script only). */
  agents?: readonly [string, string];
}

/**
 * How one kind of reply is read. `parsing: reask` (grapevine's way) sends `schema` as
 * structured output (or `jsonSchema` when given: the wire form of a schema that also maps
 * the reply) and re-asks an invalid reply twice; `parsing: sotopia` (Sotopia's way) reads
 * the reply with `sotopia.parse` and asks once for a repair.
 */
export interface Reading<T> {
  schema: z.ZodType<T>;
  /** The structured-output schema when `schema` transforms the reply (no JSON Schema of its own). */
  jsonSchema?: Record<string, Json>;
  /** The structured-output schema's name. */
  name: string;
  /** Set when replies are read the Sotopia way. */
  sotopia?: { parse: (text: string) => ParseResult<T>; repair: RepairSpec };
}

/** A reading that maps each value it reads. */
export function mapReading<T, U>(r: Reading<T>, f: (value: T) => U): Reading<U> {
  const sotopia = r.sotopia && {
    repair: r.sotopia.repair,
    parse: (text: string): ParseResult<U> => {
      const p = r.sotopia!.parse(text);
      return p.ok ? { ok: true, value: f(p.value) } : p;
    },
  };
  return {
    schema: r.schema.transform(f) as unknown as z.ZodType<U>,
    jsonSchema: r.jsonSchema ?? wireSchema(r.schema),
    name: r.name,
    ...(sotopia && { sotopia }),
  };
}

/** A schema's JSON Schema as structured output sends it (without `$schema`). */
export function wireSchema(schema: z.ZodType): Record<string, Json> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as Record<string, Json>;
  return rest;
}
