import { CanonicalEncoder } from './canonical-encoder.ts';

/** A value that survives a JSON round trip unchanged. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The encoder behind {@link canonicalJson}: its cache of quoted keys is memoisation only. */
const shared = new CanonicalEncoder();

/**
 * Serialises `value` as canonical JSON: object keys sorted by code unit, no whitespace,
 * `undefined` properties dropped. Non-finite numbers and other non-JSON values throw, so
 * that two equal states always give the same bytes.
 */
export function canonicalJson(value: unknown): string {
  return shared.encode(value);
}
