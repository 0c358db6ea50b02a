import type { JsonSchemaObject } from './chat-request.ts';

/** A JSON Schema node with `$ref` and `allOf` resolved against the root schema. */
export type SchemaNode = JsonSchemaObject;

/** Deepest `$ref` chain followed before giving up (guards against reference cycles). */
const MAX_REF_HOPS = 32;

/**
 * Resolves a schema node: follows local `$ref`s (`#`, `#/$defs/...`, `#/definitions/...`;
 * sibling keywords win over the target's), merges `allOf` members (properties and
 * `required` unioned, other keywords shallow-merged) and turns `true` into `{}`. A `false`
 * or unresolvable node becomes `{}`: the filler then produces a string, the best it can do.
 */
export function resolveNode(node: unknown, root: JsonSchemaObject): SchemaNode {
  let current = asObject(node);
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_REF_HOPS; hops++) {
    const { $ref, ...rest } = current;
    current = { ...asObject(pointer(root, $ref as string)), ...rest };
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    return (allOf as unknown[]).map((member) => resolveNode(member, root)).reduce(mergeNodes, rest);
  }
  return current;
}

/** The node's first non-null `type` and whether `null` is allowed. */
export function nodeType(node: SchemaNode): { type: string | undefined; nullable: boolean } {
  const types = Array.isArray(node.type) ? (node.type as string[]) : node.type ? [node.type as string] : [];
  const nullable = types.includes('null') || node.nullable === true;
  const type = types.find((t) => t !== 'null');
  if (type) return { type, nullable };
  if (types.length > 0) return { type: 'null', nullable };
  if (isObject(node.properties)) return { type: 'object', nullable };
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return { type: 'array', nullable };
  return { type: undefined, nullable };
}

/** The node's properties, or `{}`. */
export function nodeProperties(node: SchemaNode): Record<string, unknown> {
  return isObject(node.properties) ? node.properties : {};
}

/** A numeric keyword of the node, when it is a finite number. */
export function numberKeyword(node: SchemaNode, key: string): number | undefined {
  const v = node[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function mergeNodes(a: SchemaNode, b: SchemaNode): SchemaNode {
  const merged: SchemaNode = { ...a, ...b };
  if (isObject(a.properties) || isObject(b.properties))
    merged.properties = { ...nodeProperties(a), ...nodeProperties(b) };
  if (Array.isArray(a.required) || Array.isArray(b.required))
    merged.required = [...new Set([...asArray(a.required), ...asArray(b.required)])];
  return merged;
}

function pointer(root: JsonSchemaObject, ref: string): unknown {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

function asObject(node: unknown): SchemaNode {
  return isObject(node) ? node : {};
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** True for a plain (non-array) object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
