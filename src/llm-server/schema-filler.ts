import type { Json } from '../core/index.ts';
import { type FillContext, type FillPath, lastKey } from './fill-context.ts';
import { classifyAction } from './reply-plan.ts';
import {
  isObject,
  nodeProperties,
  nodeType,
  numberKeyword,
  resolveNode,
  type SchemaNode,
} from './schema-node.ts';
import { fillString } from './string-filler.ts';

/** Nesting depth at which the filler stops descending (returns `null`). */
const MAX_DEPTH = 12;

/**
 * Builds a value that validates against a JSON Schema, filled from the reply plan:
 * every property is filled (required or not); `const` and `enum` are honoured (an `action`
 * enum gets the planned action, a `to` enum the addressee, others a deterministic pick);
 * strings get the in-character line, the addressee, a reason... by the role of the property
 * name (`ctx.roleOf`, see `field-role.ts`); integers and numbers fall mid-range within `minimum`/`maximum`
 * (0..10 when unbounded), as a judge's scores would; arrays get `max(minItems, 1)` items
 * capped by `maxItems` (tuples via `prefixItems` or an `items` array); `anyOf`/`oneOf` take the first non-null
 * branch. `pattern` is not honoured.
 */
export function fillSchema(schema: unknown, ctx: FillContext): Json {
  return fill(schema, ctx, { keys: [], besideScore: false }, 0);
}

function fill(raw: unknown, ctx: FillContext, path: FillPath, depth: number): Json {
  if (depth > MAX_DEPTH) return null;
  const node = resolveNode(raw, ctx.root);
  const key = lastKey(path);
  const role = ctx.roleOf(key);
  if ('const' in node) return node.const as Json;
  if (Array.isArray(node.enum) && node.enum.length > 0)
    return chooseEnum(node.enum as Json[], role, path, ctx);
  const variants = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    const isNull = (v: unknown) => nodeType(resolveNode(v, ctx.root)).type === 'null';
    if (role === 'to' && ctx.plan.to === undefined && variants.some(isNull)) return null;
    return fill(variants.find((v) => !isNull(v)) ?? variants[0], ctx, path, depth + 1);
  }
  const { type, nullable } = nodeType(node);
  if (nullable && role === 'to' && ctx.plan.to === undefined) return null;
  switch (type) {
    case 'object':
      return fillObject(node, ctx, path, depth);
    case 'array':
      return fillArray(node, ctx, path, depth);
    case 'integer':
      return fillNumber(node, true, ctx, path);
    case 'number':
      return fillNumber(node, false, ctx, path);
    case 'boolean':
      return ctx.dice.chance(`bool:${path.keys.join('.')}`, 0.5);
    case 'null':
      return null;
    default:
      return fillString(node, ctx, path);
  }
}

function fillObject(node: SchemaNode, ctx: FillContext, path: FillPath, depth: number): Json {
  const props = nodeProperties(node);
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  const keys = [...Object.keys(props), ...required.filter((k) => !(k in props))];
  const besideScore = keys.some((k) => isNumeric(props[k], ctx));
  const out: Record<string, Json> = {};
  for (const k of keys)
    out[k] = fill(props[k] ?? {}, ctx, { keys: [...path.keys, k], besideScore }, depth + 1);
  return out;
}

function fillArray(node: SchemaNode, ctx: FillContext, path: FillPath, depth: number): Json {
  // a tuple: `prefixItems` (JSON Schema 2020-12) or an array of `items` (drafts 4 to 7, as pydantic 1.x writes)
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : [];
  const prefix = tuple as unknown[];
  const min = numberKeyword(node, 'minItems') ?? 0;
  const max = numberKeyword(node, 'maxItems') ?? Number.POSITIVE_INFINITY;
  const items = isObject(node.items) ? node.items : undefined;
  const count = Math.min(Math.max(min, prefix.length, items || prefix.length === 0 ? 1 : 0), max);
  const besideScore = prefix.some((p) => isNumeric(p, ctx));
  const itemNode = items ? resolveNode(items, ctx.root) : {};
  if (node.uniqueItems === true && Array.isArray(itemNode.enum) && prefix.length === 0) {
    const start = ctx.dice.int(`enum:${path.keys.join('.')}`, itemNode.enum.length);
    const values = itemNode.enum as Json[];
    return Array.from(
      { length: Math.min(count, values.length) },
      (_, i) => values[(start + i) % values.length],
    );
  }
  const out: Json[] = [];
  for (let i = 0; i < count; i++) {
    const child = i < prefix.length ? prefix[i] : (items ?? {});
    out.push(fill(child, ctx, { keys: [...path.keys, i], besideScore }, depth + 1));
  }
  return out;
}

function fillNumber(node: SchemaNode, integer: boolean, ctx: FillContext, path: FillPath): number {
  let lo = numberKeyword(node, 'minimum');
  let hi = numberKeyword(node, 'maximum');
  const exMin = numberKeyword(node, 'exclusiveMinimum');
  const exMax = numberKeyword(node, 'exclusiveMaximum');
  if (exMin !== undefined) lo = integer ? Math.floor(exMin) + 1 : Math.max(lo ?? exMin, exMin);
  if (exMax !== undefined) hi = integer ? Math.ceil(exMax) - 1 : Math.min(hi ?? exMax, exMax);
  if (integer) {
    lo = lo === undefined ? undefined : Math.ceil(lo);
    hi = hi === undefined ? undefined : Math.floor(hi);
  }
  const low = lo ?? (hi === undefined ? 0 : hi - 10);
  const high = hi ?? low + 10;
  const u = ctx.dice.unit(`number:${path.keys.join('.')}`);
  let v = low + (high - low) * (0.35 + 0.3 * u);
  const step = numberKeyword(node, 'multipleOf');
  if (step !== undefined && step > 0) {
    v = Math.round(v / step) * step;
    if (v < low) v += step;
    if (v > high) v -= step;
  } else if (integer) v = Math.round(v);
  else {
    const rounded = Math.round(v * 100) / 100;
    if (rounded > low && rounded < high) v = rounded;
  }
  return Math.min(Math.max(v, low), high);
}

function chooseEnum(values: Json[], role: string, path: FillPath, ctx: FillContext): Json {
  const lower = (v: Json) => (typeof v === 'string' ? v.toLowerCase() : v);
  const find = (wanted: string | undefined) =>
    wanted === undefined ? undefined : values.find((v) => lower(v) === wanted.toLowerCase());
  const purpose = `enum:${path.keys.join('.')}`;
  if (role === 'action') {
    const planned = ctx.plan.action;
    const sameClass = values.filter(
      (v) => typeof v === 'string' && classifyAction(v) === classifyAction(planned),
    );
    return (
      find(planned) ??
      (sameClass.length > 0 ? ctx.dice.pick(purpose, sameClass) : ctx.dice.pick(purpose, values))
    );
  }
  if (role === 'to') {
    const everyone = values.find((v) => typeof v === 'string' && /^(everyone|all|public|channel)$/i.test(v));
    return (
      find(ctx.plan.to) ??
      (ctx.plan.to === undefined ? everyone : undefined) ??
      ctx.dice.pick(purpose, values)
    );
  }
  return ctx.dice.pick(purpose, values);
}

function isNumeric(raw: unknown, ctx: FillContext): boolean {
  const t = nodeType(resolveNode(raw, ctx.root)).type;
  return t === 'integer' || t === 'number';
}
