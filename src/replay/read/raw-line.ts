import { canonicalJson } from '../../core/index.ts';
import { HASH_SUFFIX_LENGTH } from '../format/chain.ts';

const SUFFIX = Buffer.from(',"h":"');
const WALL = Buffer.from('"wall":');
const WALL_MEMBER = Buffer.from(',"wall":');
const TAIL = /"t":(-?[0-9.e+-]+),"type":"([^"\\]+)","h":"[0-9a-f]{16}"}$/;

/**
 * What the bytes of an event line give without parsing it: its `h` (`hash`), the end of its
 * hashed body (`line[0, bodyEnd)` and a closing brace: the line without `h` and `wall`), and
 * its tick and type when `type` is its last key, right after `t` (snapshot and tick lines).
 * Null when the line does not end in an `h` or holds `"wall":` other than as a canonical
 * object right before `h` (it is checked in full).
 */
export function rawLine(
  line: Buffer,
): { hash: string; bodyEnd: number; kind?: { t: number; type: string } } | null {
  const n = line.length;
  if (n < HASH_SUFFIX_LENGTH + 1 || line[n - 1] !== 0x7d || line[n - 2] !== 0x22) return null;
  if (line.compare(SUFFIX, 0, SUFFIX.length, n - HASH_SUFFIX_LENGTH, n - 18) !== 0) return null;
  const end = n - HASH_SUFFIX_LENGTH;
  const at = line.lastIndexOf(WALL_MEMBER, end);
  if (at === -1 ? line.indexOf(WALL) !== -1 : !isWall(line.toString('utf8', at + WALL_MEMBER.length, end)))
    return null;
  const m = TAIL.exec(line.toString('latin1', Math.max(0, n - 80)));
  const hash = line.toString('latin1', n - 18, n - 2);
  return { hash, bodyEnd: at === -1 ? end : at, ...(m ? { kind: { t: Number(m[1]), type: m[2] } } : {}) };
}

/** True for the text of a canonical JSON object (a nested `"wall":` leaves unbalanced braces). */
function isWall(text: string): boolean {
  try {
    const wall: unknown = JSON.parse(text);
    return wall !== null && typeof wall === 'object' && !Array.isArray(wall) && canonicalJson(wall) === text;
  } catch {
    return false;
  }
}
