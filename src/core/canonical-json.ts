import { Base64Text } from './base64-text.ts';

/** A value that survives a JSON round trip unchanged. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Serialises `value` as canonical JSON: object keys sorted by code unit, no whitespace,
 * `undefined` properties dropped. Non-finite numbers and other non-JSON values throw, so
 * that two equal states always give the same bytes.
 */
export function canonicalJson(value: unknown): string {
  // The path of a bad value is only built when there is one: a second walk names it.
  return tryWrite(value) ?? write(value, '$');
}

/** {@link canonicalJson}'s text, or undefined where {@link write} would throw (no path strings on the way). */
function tryWrite(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) return undefined;
      return Object.is(value, -0) ? '0' : String(value);
    case 'object':
      return Array.isArray(value) ? tryArray(value) : tryObject(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

function tryArray(value: readonly unknown[]): string | undefined {
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    const item = value[i] === undefined ? 'null' : tryWrite(value[i]);
    if (item === undefined) return undefined;
    out += i === 0 ? item : `,${item}`;
  }
  return `${out}]`;
}

function tryObject(value: Record<string, unknown>): string | undefined {
  if (value instanceof Base64Text) return JSON.stringify(value.toString());
  if (ArrayBuffer.isView(value)) return undefined;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const keys = Object.keys(value).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    const item = tryWrite(v);
    if (item === undefined) return undefined;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${out}}`;
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: non-finite number at ${path}`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object':
      return Array.isArray(value)
        ? writeArray(value, path)
        : writeObject(value as Record<string, unknown>, path);
    default:
      throw new TypeError(`canonical JSON: cannot serialise ${typeof value} at ${path}`);
  }
}

function writeArray(value: readonly unknown[], path: string): string {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i++)
    parts.push(value[i] === undefined ? 'null' : write(value[i], `${path}[${i}]`));
  return `[${parts.join(',')}]`;
}

function writeObject(value: Record<string, unknown>, path: string): string {
  if (value instanceof Base64Text) return JSON.stringify(value.toString());
  if (ArrayBuffer.isView(value))
    throw new TypeError(`canonical JSON: typed array at ${path}; convert it first`);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new TypeError(
      `canonical JSON: cannot serialise a ${value.constructor?.name ?? 'non-plain object'} at ${path}`,
    );
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${write(v, `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}
