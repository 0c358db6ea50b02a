import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Json } from '../../core/index.ts';
import { LineCodec } from './line-codec.ts';
import { LOG_FORMAT, type LogLine, logError } from './log-format.ts';

/** The `delta` field of a delta child's header, its `parent` flattened (docs/LOG-FORMAT.md, "Delta children"). */
export interface DeltaRef {
  path: string;
  absolute: string;
  digest: string;
  atTick: number;
  seq: number;
  chain: string;
  base?: [number, number];
}

/** True for a full chain value: 64 hex digits. */
const isHex64 = (v: unknown): boolean => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** True when a parsed header line is the header of a delta child (it has a `delta` field). */
export function isDeltaHeader(header: Record<string, unknown>): boolean {
  return Object.hasOwn(header, 'delta');
}

/**
 * The parent reference of a delta child's header, checked for shape.
 *
 * @throws LogFormatError when the `delta` field is not a well-formed reference.
 */
export function deltaRef(header: Record<string, unknown>, childPath: string): DeltaRef {
  const d = (header.delta ?? {}) as Record<string, unknown>;
  const p = (d.parent ?? {}) as Record<string, unknown>;
  const seq = d.seq as number;
  const base = d.base as [number, number] | undefined;
  const ok =
    typeof p.path === 'string' &&
    typeof p.absolute === 'string' &&
    isHex64(p.digest) &&
    isHex64(d.chain) &&
    Number.isSafeInteger(seq) &&
    seq >= 0 &&
    Number.isSafeInteger(d.atTick) &&
    (base === undefined ||
      (Array.isArray(base) &&
        base.length === 2 &&
        base.every(Number.isSafeInteger) &&
        1 <= base[0] &&
        base[0] <= base[1] &&
        base[1] <= seq));
  const needs =
    "the parent's path, absolute path and digest, the fork tick, seq and chain, and a base range within seq";
  const message = `${childPath}: line 1 has a malformed delta reference (it must name ${needs})`;
  if (!ok) throw logError(message, { line: 1, seq: 0 });
  const { path, absolute, digest } = p as { path: string; absolute: string; digest: string };
  const [atTick, chain] = [d.atTick as number, d.chain as string];
  return { path, absolute, digest, atTick, seq, chain, ...(base && { base }) };
}

/**
 * The parent file of a delta child: its path relative to the child's directory when a
 * file is there (the pair was moved together), else its absolute path.
 *
 * @throws LogFormatError naming the parent when neither exists.
 */
export function resolveParent(childPath: string, ref: DeltaRef): string {
  const beside = join(dirname(childPath), ref.path);
  if (isFile(beside)) return beside;
  if (isFile(ref.absolute)) return ref.absolute;
  const also = resolve(beside) === resolve(ref.absolute) ? '' : ` (nor is there ${beside})`;
  const message = `the parent log of ${childPath} is missing: ${ref.absolute}${also}; the child holds only its lines after tick ${ref.atTick}`;
  const hint = `put the parent back (digest ${ref.digest.slice(0, 16)}...), or keep standalone children: grapevine flatten CHILD while the parent exists, or fork with --standalone`;
  throw logError(message, {}, hint);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The header line of a new delta child of `parentPath` written to `childPath`, in the parent's `format`. */
export function deltaHeaderLine(
  childPath: string,
  parentPath: string,
  at: { digest: string; atTick: number; seq: number; chain: string; base?: [number, number] },
  wall?: Record<string, Json>,
  format: string = LOG_FORMAT,
): string {
  const rel = relative(dirname(resolve(childPath)), resolve(parentPath));
  const delta = {
    ...(at.base ? { base: at.base } : {}),
    atTick: at.atTick,
    chain: at.chain,
    parent: { absolute: resolve(parentPath), digest: at.digest, path: isAbsolute(rel) ? rel : rel || '.' },
    seq: at.seq,
  };
  const header: Record<string, unknown> = { type: 'header', seq: 0, t: 0, format, delta };
  if (wall && Object.keys(wall).length) header.wall = wall;
  return new LineCodec().encode(header, null).text;
}

/**
 * The parent's header as a line of the child: the `wall` of the child's delta header
 * (its fork provenance) merged over the parent's, as a standalone fork writes it. The
 * hash chain ignores `wall`, so the line's `h` and chain are the parent's.
 */
export function childHeaderLine(parentHeader: LogLine, deltaHeader: Record<string, unknown>): LogLine {
  const extra = deltaHeader.wall as Record<string, Json> | undefined;
  if (!extra) return parentHeader;
  const { h: _h, ...header } = JSON.parse(parentHeader.raw) as Record<string, unknown>;
  const wall = { ...((header.wall as Record<string, Json> | undefined) ?? {}), ...extra };
  const raw = new LineCodec().encode({ ...header, wall }, null).text;
  return { ...parentHeader, raw, event: { ...parentHeader.event, wall } };
}
