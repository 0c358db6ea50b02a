import { randomBytes } from 'node:crypto';
import { Base64Text } from '../../core/index.ts';
import { longStrings } from '../format/json-strings.ts';

/** Value of each base64 character, -1 for any other byte. */
const DIGIT = new Int16Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  DIGIT[c.charCodeAt(0)] = i;

/**
 * Parses the bytes of a `snapshot` line (a restore point) as `JSON.parse` would, except that
 * the base64 columns of a columnar executor and of the message bus (`state.executor.regions`
 * and `.columns`, the `to` and `msg` of `state.bus.pending` and `.waiting`) come back as
 * {@link Base64Text}s, decoded from the line's bytes straight into their arrays: no text of the
 * line, no string or decoded copy of a column (each costs more in page faults than in copying).
 * Also gives the line's {@link longStrings}. Undefined when the line is not one this reads (a
 * string not closed, no `state` object): the caller parses it as usual.
 */
export function parseSnapshotLine(
  bytes: Buffer,
): { event: Record<string, unknown>; longStrings: number[] } | undefined {
  const pieces: string[] = [];
  const ranges: [number, number][] = [];
  const decoded: Uint8Array[] = [];
  // marks the long strings cut out of the text parsed; random, so no string of the line can be one
  const mark = `\u0000grapevine-column-${randomBytes(8).toString('hex')}:`;
  const markJson = JSON.stringify(mark).slice(0, -1);
  const long = longStrings(bytes);
  let from = 0;
  for (let k = 0; k < long.length; k += 2) {
    const column = decodeBase64(bytes, long[k], long[k + 1]);
    if (column === null) continue;
    pieces.push(bytes.toString('utf8', from, long[k] - 1), `${markJson}${decoded.length}"`);
    ranges.push([long[k], long[k + 1]]);
    decoded.push(column);
    from = long[k + 1] + 1;
  }
  pieces.push(bytes.toString('utf8', from));
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(pieces.join('')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (decoded.length === 0) return { event, longStrings: long };
  const state = event.state;
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return undefined;
  const index = (v: unknown): number =>
    typeof v === 'string' && v.startsWith(mark) ? Number(v.slice(mark.length)) : -1;
  const column = (v: unknown): unknown => {
    const k = index(v);
    return k === -1 ? v : new Base64Text(decoded[k]);
  };
  const columns = (v: unknown): unknown => (Array.isArray(v) ? v.map(column) : column(v));
  const s = state as Record<string, unknown>;
  const ex = s.executor as Record<string, unknown> | null | undefined;
  if (ex && ex.kind === 'columnar') {
    if (Array.isArray(ex.regions)) ex.regions = ex.regions.map(column);
    if (Array.isArray(ex.columns)) ex.columns = ex.columns.map(column);
  }
  const bus = s.bus as Record<string, unknown> | null | undefined;
  const batches = bus ? [...(Array.isArray(bus.pending) ? bus.pending : []), bus.waiting] : [];
  for (const b of batches) {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) continue;
    const batch = b as Record<string, unknown>;
    if ('to' in batch) batch.to = columns(batch.to);
    if ('msg' in batch) batch.msg = columns(batch.msg);
  }
  // any other long base64 string is put back as the string it is (a key never is one)
  let badKey = false;
  const restore = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const k = index(v);
      return k === -1 ? v : bytes.toString('latin1', ranges[k][0], ranges[k][1]);
    }
    if (v === null || typeof v !== 'object' || v instanceof Base64Text) return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = restore(v[i]);
      return v;
    }
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (index(key) !== -1) badKey = true;
      o[key] = restore(o[key]);
    }
    return o;
  };
  restore(event);
  return badKey ? undefined : { event, longStrings: long };
}

/**
 * A deep copy of a snapshot state (plain JSON, where {@link parseSnapshotLine} may have put
 * {@link Base64Text}s: copied with their bytes, which `structuredClone` would turn into plain
 * objects).
 */
export function cloneSnapshotState<T>(state: T): T {
  if (state === null || typeof state !== 'object') return state;
  if (state instanceof Base64Text) return new Base64Text(state.bytes.slice()) as T;
  if (Array.isArray(state)) return state.map(cloneSnapshotState) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state)) out[k] = cloneSnapshotState(v);
  return out as T;
}

/**
 * The bytes of standard padded base64 text `bytes[from, to)`, or null when it is not that
 * (a character outside the alphabet, a length not a multiple of 4, padding before the end).
 * Decoded here rather than by `Buffer.from(text, 'base64')`, which needs the text as a string.
 */
export function decodeBase64(bytes: Uint8Array, from: number, to: number): Uint8Array | null {
  const n = to - from;
  if (n % 4 !== 0) return null;
  const pad = n === 0 || bytes[to - 1] !== 0x3d ? 0 : bytes[to - 2] === 0x3d ? 2 : 1;
  const out = new Uint8Array((n / 4) * 3 - pad);
  const full = pad === 0 ? to : to - 4;
  let o = 0;
  let at = from;
  for (; at < full; at += 4) {
    const x =
      (DIGIT[bytes[at]] << 18) |
      (DIGIT[bytes[at + 1]] << 12) |
      (DIGIT[bytes[at + 2]] << 6) |
      DIGIT[bytes[at + 3]];
    if (x < 0) return null;
    out[o++] = x >> 16;
    out[o++] = (x >> 8) & 0xff;
    out[o++] = x & 0xff;
  }
  if (pad > 0) {
    const c = DIGIT[bytes[at + 2]];
    const x = (DIGIT[bytes[at]] << 18) | (DIGIT[bytes[at + 1]] << 12) | (pad === 1 ? c << 6 : 0);
    if (x < 0 || (pad === 1 && c < 0)) return null;
    out[o++] = x >> 16;
    if (pad === 1) out[o++] = (x >> 8) & 0xff;
  }
  return out;
}
