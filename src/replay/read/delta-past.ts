import { realpathSync } from 'node:fs';
import { LogFormatError } from '../../core/index.ts';
import { childHeaderLine, type DeltaRef, resolveParent } from '../format/delta-ref.ts';
import { type LogHeader, type LogLine, logError } from '../format/log-format.ts';
import { loadParentIndex } from '../format/log-index.ts';
import { type PatchBases, SNAPSHOT_PATCH } from '../format/snapshot-patch.ts';
import type { readLines } from './line-reader.ts';
import type { LineVerifier, ParseRule } from './line-verifier.ts';

// A delta child's past: its parent's lines up to the fork, and its patch lines expanded.

/** The lines a `snapshot-patch` line may stand for. */
const PATCHED_TYPES = new Set(['snapshot', 'snapshot-part']);
/** Generations of delta parents read at most (a longer chain is refused, a loop at once). */
const MAX_DELTA_DEPTH = 64;

/** The line a patch line of a delta child stands for, verified as such. */
export function expand(
  bases: PatchBases,
  bytes: Buffer,
  at: number,
  v: LineVerifier,
  parse: ParseRule,
): LogLine {
  const patch = bases.expand(bytes.toString('utf8'), v.lines + 1, v.mode === true);
  const line = v.acceptBytes(patch.bytes, at, parse, false, true);
  const what = `${bases.path}: line ${line.line} (a ${SNAPSHOT_PATCH})`;
  const where = { line: line.line, seq: line.seq, tick: line.t };
  const wrong = `${what} does not stand for a snapshot line with its seq and tick: the log was modified`;
  if (line.seq !== patch.seq || line.t !== patch.t || !PATCHED_TYPES.has(line.type))
    throw logError(wrong, where);
  return line;
}

/**
 * Yields and checks the past of a delta child from its parent as docs/LOG-FORMAT.md, "Delta
 * children" says, offering each line to `bases`, and sets `verifier` to take the child's own lines.
 *
 * @throws LogFormatError naming the parent when it is missing, does not read, differs, is the
 *   child itself or one of its descendants, or lies too many generations up.
 */
export async function* parentPrefix(
  read: typeof readLines,
  childPath: string,
  deltaLine: LogLine,
  ref: DeltaRef,
  verifier: LineVerifier,
  ancestry: readonly string[],
  bases: PatchBases,
): AsyncGenerator<LogLine, void, undefined> {
  const parentPath = resolveParent(childPath, ref);
  checkAncestry(childPath, parentPath, ancestry);
  const verify = verifier.mode;
  const indexed = loadParentIndex(parentPath);
  const upToFork = indexed?.complete === true && indexed.digest === ref.digest;
  let atFork: LogLine | undefined;
  let header: LogLine | undefined;
  let last: LogLine | undefined;
  try {
    // a reader that stops early (readHeader) closes the parent's file too
    for await (last of read(parentPath, verify, () => true, ancestry)) {
      if (last.seq > ref.seq) continue;
      if (last.seq === 0) header = childHeaderLine(last, deltaLine.event);
      if (last.seq === ref.seq) atFork = last;
      bases.offer(last.seq, last.bytes ?? last.raw);
      yield last.seq === 0 ? (header as LogLine) : last;
      if (upToFork && atFork) break;
    }
  } catch (err) {
    throw parentError(childPath, parentPath, ref, err);
  }
  // without verify, a line's `h` (the first 16 hex digits of its chain value) stands for it
  const hashOf = (line: LogLine | undefined) => (verify ? line?.chain : line?.raw.slice(-18, -2));
  const same = (line: LogLine | undefined, chain: string) =>
    hashOf(line) === (verify ? chain : chain.slice(0, 16));
  const sameAtFork = same(atFork, ref.chain);
  if (!sameAtFork || !(upToFork || same(last, ref.digest)) || !header) {
    const digest = verify ? hashOf(last) : `...${hashOf(last) ?? ''}`;
    const why = sameAtFork
      ? `its digest is ${digest}, the child names ${ref.digest}`
      : `its line at seq ${ref.seq} (end of tick ${ref.atTick}) does not continue into the child's chain`;
    const hint = `restore the parent with digest ${ref.digest} at ${ref.absolute}, or rerun the fork`;
    const message = `the parent log ${parentPath} of ${childPath} is not the run it was forked from: ${why}`;
    throw new ParentLogError(message, {}, { hint });
  }
  verifier.continueAfter(header.event as LogHeader, ref.seq, (atFork as LogLine).t, ref.chain);
}

/** An error about a delta child's parent, passed up unchanged through the generations above it. */
class ParentLogError extends LogFormatError {}

/** @throws ParentLogError when `parentPath` is one of the logs being read (a loop) or lies too far up. */
function checkAncestry(childPath: string, parentPath: string, ancestry: readonly string[]): void {
  const real = realpathSync(parentPath);
  const hint = 'a delta child names the log it was forked from; restore that parent, or rerun the fork';
  const which = real === ancestry.at(-1) ? 'the log itself' : 'one of its own descendants';
  const at = { line: 1, seq: 0 };
  const loop = `${childPath} names ${parentPath} as its parent, which is ${which}: its delta parents form a loop`;
  if (ancestry.includes(real)) throw new ParentLogError(loop, at, { hint });
  const deep = `${childPath} has more than ${MAX_DELTA_DEPTH} generations of delta parents`;
  const flatten = `flatten a child on the way (grapevine flatten), or ${hint}`;
  if (ancestry.length >= MAX_DELTA_DEPTH) throw new ParentLogError(deep, at, { hint: flatten });
}

function parentError(childPath: string, parentPath: string, ref: DeltaRef, err: unknown): unknown {
  if (!(err instanceof LogFormatError) || err instanceof ParentLogError) return err;
  const hint = err.hint || `restore the parent with digest ${ref.digest}, or rerun the fork`;
  const message = `the parent log ${parentPath} of ${childPath} does not read: ${err.message}`;
  return new ParentLogError(message, err.position, { cause: err, hint });
}
