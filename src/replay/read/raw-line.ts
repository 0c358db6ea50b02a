// A line of a log read as bytes, checked without parsing: its `h`, where its hashed body ends,
// its tick and type, and its chain value from its bytes as they are.
import { canonicalJson } from '../../core/index.ts';
import { chainHash, HASH_SUFFIX_LENGTH } from '../format/chain.ts';

const SUFFIX = Buffer.from(',"h":"');
const WALL = Buffer.from('"wall":');
const WALL_MEMBER = Buffer.from(',"wall":');

/** True when the line's bytes hold `"wall":` anywhere (its hashed body then differs from its bytes). */
export function mayHoldWall(line: Buffer): boolean {
  return line.indexOf(WALL) !== -1;
}

/** The 16 hex digits of the line's `h` (its last key), or null when the line does not end in one. */
export function rawLineHash(line: Buffer): string | null {
  const n = line.length;
  if (n < HASH_SUFFIX_LENGTH + 1 || line[n - 1] !== 0x7d || line[n - 2] !== 0x22) return null;
  if (line.compare(SUFFIX, 0, SUFFIX.length, n - HASH_SUFFIX_LENGTH, n - 18) !== 0) return null;
  return line.toString('latin1', n - 18, n - 2);
}

/**
 * Where the hashed body of an event line ends (see log-format.ts: the body is the line
 * without `h` and without `wall`): before its `,"h":"..."` member, or, for a line whose last
 * member before `h` is `wall`, before `,"wall":`. Null when the line holds `"wall":` in any
 * other way, or a `wall` that is not a canonical JSON object (such a line is read in full).
 * `line` must end in an `h` member ({@link rawLineHash} not null).
 */
export function rawBodyEnd(line: Buffer): number | null {
  const end = line.length - HASH_SUFFIX_LENGTH;
  const at = line.lastIndexOf(WALL_MEMBER, end);
  if (at === -1) return mayHoldWall(line) ? null : end;
  // A nested `"wall":` (not the line's own) leaves unbalanced braces after it: no JSON object.
  const text = line.toString('utf8', at + WALL_MEMBER.length, end);
  let wall: unknown;
  try {
    wall = JSON.parse(text);
  } catch {
    return null;
  }
  if (wall === null || typeof wall !== 'object' || Array.isArray(wall)) return null;
  return canonicalJson(wall) === text ? at : null;
}

/**
 * The chain value after an event line, computed from its bytes as they are: the hashed body
 * is the line up to `bodyEnd` (default: without its `,"h":"..."` member, for a line without
 * `wall`; see {@link rawBodyEnd}) and its closing `}`, so no parsing or re-encoding is
 * needed. The bytes are not checked for canonical form.
 */
export function rawEventChain(
  line: Buffer,
  prevChain: string,
  bodyEnd = line.length - HASH_SUFFIX_LENGTH,
): string {
  return chainHash(prevChain, [line.subarray(0, bodyEnd), '}']);
}

const TAIL = /"t":(-?[0-9.e+-]+),"type":"([^"\\]+)","h":"[0-9a-f]{16}"}$/;
const END_TAIL = /,"type":"end","h":"[0-9a-f]{16}"}$/;

/**
 * The tick and type of an event line whose last key before `h` is `type` right after `t`
 * (tick and snapshot lines), read from its last bytes without parsing it; null otherwise.
 * An `end` line gives type `end` (its tick is not read).
 */
export function rawLineKind(line: Buffer): { t: number; type: string } | null {
  const tail = line.toString('latin1', Math.max(0, line.length - 80));
  const m = TAIL.exec(tail);
  if (m) return { t: Number(m[1]), type: m[2] };
  return END_TAIL.test(tail) ? { t: Number.NaN, type: 'end' } : null;
}
