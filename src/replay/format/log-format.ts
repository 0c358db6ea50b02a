/**
 * # The grapevine replay log, format `grapevine-log/3` (written), `grapevine-log/2` and `/1` (read)
 *
 * A replay log records one run: everything needed to rerun it byte for byte, fork it at
 * any tick, and prove that it was not edited afterwards.
 *
 * ## Lines
 *
 * The file is NDJSON: UTF-8 text, one JSON object per line, every line terminated by a
 * single `\n` (no `\r`, no blank lines).
 *
 * - **Line 1 is the header**: `"type":"header"`, `"seq":0`, `"t":0`,
 *   `"format":"grapevine-log/1"`, plus the fields of the run (engine version, world id and
 *   version, resolved parameters, seed, log level, parent run and fork point...).
 * - **Every other line is an event**: `seq` (an integer: 1, 2, 3... with no gap and no
 *   repeat), `t` (the simulation time, a finite number), `type` (a string such as
 *   `"tick"`, `"act"`, `"llm"`, `"end"`), and any payload fields of that event type.
 * - A run that finished normally ends with an event of type `"end"`; a log without one
 *   is incomplete (the run crashed, was killed, or is still being written).
 *
 * ## Canonical bytes
 *
 * Each line is exactly `canonicalJson(record)` (object keys sorted by UTF-16 code unit at
 * every depth, no whitespace, `-0` written as `0`; see `src/core/canonical-json.ts`) with
 * `,"h":"<16 hex digits>"` inserted before the final `}`: `h` is always the last key and
 * is not part of the canonical body. A reader re-serialises every parsed line and
 * rejects any line whose bytes differ, so a one-byte edit anywhere is detected, even one
 * that keeps the JSON valid and equal in meaning (reordered keys, added spaces).
 *
 * ## Wall-clock data
 *
 * A field named `wall`, whose value is an object, may appear on any line. It holds data
 * that legitimately differs between two runs of the same world, config and seed
 * (start time, elapsed milliseconds, LLM latencies). It is written in canonical form like
 * everything else but is **excluded from the hash chain**: two runs that differ only in
 * `wall` have the same digest. Consequently `wall` is not tamper-evident; never put
 * anything in it that a rerun depends on.
 *
 * ## Hash chain
 *
 * Let `body(x)` be `canonicalJson(x)` of the line's record without `h` and without `wall`,
 * and `sha256hex` the lowercase hex SHA-256 of the UTF-8 bytes:
 *
 * ```text
 * chain_0 = sha256hex("grapevine-log/1\n" + body(header))
 * chain_i = sha256hex(chain_{i-1} + "\n" + body(event_i))      (i = seq >= 1)
 * h_i     = first 16 hex digits of chain_i
 * ```
 *
 * The **run digest** is the full 64-hex `chain` of the last line. It identifies the
 * run's content: the same world, config and seed give the same digest on every machine,
 * and any edit, insertion, removal or reordering of lines changes every later `h` (a
 * reader names the first line that does not match). Removing lines from the end cannot
 * be detected by the chain alone; the missing `"end"` event shows it.
 *
 * ## Compression
 *
 * A log whose path ends in `.gz` is a concatenation of complete gzip members, each
 * holding a whole number of lines (the writer emits one member per flush, normally one
 * per tick). Standard tools read it (`zcat run.ndjson.gz`), and a process killed in the
 * middle of a write leaves a readable prefix. The digest does not depend on compression.
 *
 * ## Crashes and truncation
 *
 * A final line without its `\n`, a final gzip member that is cut short, or zero bytes
 * after the last gzip member (what a crash can leave on some file systems) are not
 * errors: readers stop at the last complete line and report the log as `truncated`. A
 * writer can resume such a log: it cuts the file back to its last complete line (for
 * gzip: to its last complete member, then writes the complete lines recovered from the
 * partial member again as a new member) and continues the chain, so that the result has
 * the same lines and digest as a log written in one go.
 *
 * ## Verification
 *
 * A reader checks every line, in this order, and reports the first failure with its line
 * number, the seq expected there and the tick: the line is valid UTF-8 and JSON; line 1
 * is a header of this format, every other line an event (`seq` an integer, `t` a finite
 * number, `type` a non-empty string); `seq` is one more than the previous line's (a
 * removed, repeated or moved line shows here); the bytes are exactly the canonical
 * encoding of the parsed line with its `h` last; `h` continues the hash chain.
 *
 * ## Format 2
 *
 * Format 2 keeps every rule above; the chain starts with the header's own format tag
 * (`"grapevine-log/2\n"`), so one reader verifies both. What differs (docs/LOG-FORMAT.md):
 * the per-tick `state` digest of XState agents that keep JSON memory is an additive hash
 * of their fields and memory entries (src/agent/json-memory-digest.ts), updated per
 * inserted or evicted entry instead of re-encoding every agent's memory each tick; and an
 * `llm` line's JSON schema is written once, in a `schema` line before its first use, and
 * referred to by its SHA-256 (`params.json.schemaRef`) from every `llm` line.
 *
 * ## Format 3
 *
 * Format 3 keeps format 2 and changes one thing (docs/LOG-FORMAT.md): in the per-tick
 * `state` digest, a memory entry's term is the SHA-256 of its content (everything but its
 * id), memoised per heard line, multiplied lane by lane with a multiplier bound to its agent,
 * key and id, instead of one SHA-256 of the whole entry per hearer.
 *
 * Format 3 also lets a delta child of a format-3 parent write its snapshots as
 * `snapshot-patch` lines (the bytes of a `snapshot` or `snapshot-part` line given as their
 * differences from a line of the parent named in `delta.base`); the chain runs over the
 * full lines, so the digest is the one of the child's flattening (docs/LOG-FORMAT.md,
 * "Snapshot patches"; src/replay/snapshot-patch.ts).
 *
 * @packageDocumentation
 */

/** The format tag written in the header of every new log, and the prefix of its hash chain. */
export const LOG_FORMAT = 'grapevine-log/3';

/** The first format: still read, verified, replayed, resumed and forked (in that format). */
export const LOG_FORMAT_1 = 'grapevine-log/1';

/** The second format: still read, verified, replayed, resumed and forked (in that format). */
export const LOG_FORMAT_2 = 'grapevine-log/2';

/**
 * The format whose delta children may hold `snapshot-patch` lines (their snapshots written
 * as their differences from a snapshot of the parent, see `snapshot-patch.ts` and
 * docs/LOG-FORMAT.md, "Snapshot patches"): format 3, the format new runs write. A child of
 * an older parent stays in its parent's format and writes full snapshots.
 */
export const LOG_FORMAT_PATCHED = LOG_FORMAT;

/** A format this grapevine reads. */
export type LogFormat = typeof LOG_FORMAT | typeof LOG_FORMAT_2 | typeof LOG_FORMAT_1;

/** Every format this grapevine reads, oldest first. */
export const READABLE_FORMATS: readonly LogFormat[] = [LOG_FORMAT_1, LOG_FORMAT_2, LOG_FORMAT];

/** True when `format` is one this grapevine reads. */
export function isReadableFormat(format: unknown): format is LogFormat {
  return READABLE_FORMATS.includes(format as LogFormat);
}

/** Keys that the log itself owns; callers cannot set them as payload fields. */
export const RESERVED_FIELDS: readonly string[] = ['seq', 't', 'type', 'h', 'format'];

/** Fields of a log line other than the ones the log owns: any JSON-safe values. */
export type LogFields = Record<string, unknown>;

/** The parsed header line of a log (line 1), without its `h`. */
export interface LogHeader extends LogFields {
  /** Always `"header"`. */
  type: 'header';
  /** Always 0. */
  seq: 0;
  /** Always 0. */
  t: 0;
  /** {@link LOG_FORMAT} for new logs, or an older {@link LogFormat} this grapevine reads. */
  format: LogFormat;
}

/** True when `path` names a gzip-compressed log (it ends in `.gz`). */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}

/** One complete, verified line of a log, as the reader yields it. */
export interface LogLine {
  /** Sequence number: 0 for the header, then 1, 2, 3... */
  seq: number;
  /** Simulation time of the line (0 for the header). */
  t: number;
  /** Event type (`"header"` for line 1). */
  type: string;
  /** 1-based line number in the (decompressed) file. */
  line: number;
  /** The line's exact text, without its `\n`. */
  raw: string;
  /** The parsed line, without `h` (with `wall`, when present). */
  event: Record<string, unknown>;
  /** Full 64-hex chain value after this line (when read with verification). */
  chain?: string;
}
