// Shared helpers of the fork / resume / diff tests (not a test file itself).
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { loadWorldFromHeader } from '../../src/cli/load-world.ts';
import { replayServices } from '../../src/cli/replay-services.ts';
import { LineCodec } from '../../src/replay/format/line-codec.ts';
import { readRecordedRun, rerunLog } from '../../src/replay/index.ts';
import { cliJson } from '../support/cli.ts';
import { cliCheckedJson } from '../support/cli-in-process.ts';
import { lines as fileLines, reChain } from '../support/logs.ts';

/**
 * The lines of a log as every reader sees them: a delta child's past is taken from its
 * parent (recursively), written here independently of src/replay from the format's
 * description (the parent's lines up to `delta.seq`, its header with the child's `wall`
 * merged in, then the child's own lines).
 */
export function lines(path: string): string[] {
  const own = fileLines(path);
  const head = JSON.parse(own[0]) as { delta?: { seq: number; parent: { path: string } }; wall?: object };
  if (!head.delta) return own;
  const past = lines(join(dirname(path), head.delta.parent.path)).slice(0, head.delta.seq + 1);
  const { h: _h, ...header } = JSON.parse(past[0]) as Record<string, unknown>;
  const wall = { ...(header.wall as object), ...head.wall };
  past[0] = new LineCodec().encode({ ...header, wall }, null).text;
  return [...past, ...own.slice(1).map((l) => unpatched(l, past))];
}

/**
 * The line a `snapshot-patch` line stands for (any other line as it is), from the format's
 * description: the base line's bytes, with each varint triple (copy, insert, skip) of `ops`
 * copying bytes of the base, inserting bytes of `data` (latin1) and skipping base bytes,
 * then the rest of the base.
 */
function unpatched(line: string, past: string[]): string {
  if (!line.endsWith('"type":"snapshot-patch"', line.length - 24)) return line;
  const patch = JSON.parse(line) as { base: number; ops: string; data: string };
  const base = Buffer.from(past[patch.base], 'utf8');
  const ops = Buffer.from(patch.ops, 'base64');
  const data = Buffer.from(patch.data, 'latin1');
  const numbers: number[] = [];
  for (let i = 0, n = 0, shift = 0; i < ops.length; i++) {
    n += (ops[i] & 0x7f) * 2 ** shift;
    shift += 7;
    if (ops[i] < 0x80) {
      numbers.push(n);
      n = 0;
      shift = 0;
    }
  }
  const out: Buffer[] = [];
  let at = 0;
  let from = 0;
  for (let k = 0; k < numbers.length; k += 3) {
    out.push(base.subarray(at, at + numbers[k]), data.subarray(from, from + numbers[k + 1]));
    at += numbers[k] + numbers[k + 2];
    from += numbers[k + 1];
  }
  out.push(base.subarray(at));
  return Buffer.concat(out).toString('utf8');
}

/** What a command did (in a child process or in this one). */
type CliResult = { code: number | null; stdout: string; stderr: string };

/** One child of a fork batch, as `fork --json` lists it. */
export interface BatchChild {
  atTick: number;
  arm: string;
  replicate: number;
  log: string;
  digest: string;
}

/** Runs async tasks with at most `limit` in flight (the CLI is CPU bound; CI boxes are small). */
export async function pool<T>(tasks: (() => Promise<T>)[], limit = 2): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const k = next++;
      out[k] = await tasks[k]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** A parsed log line. */
export interface Line {
  seq: number;
  t: number;
  type: string;
  [key: string]: unknown;
}

export function parsed(path: string): Line[] {
  return lines(path).map((l) => JSON.parse(l) as Line);
}

/** The header line without its `wall` part (which alone may differ between a parent and a child). */
export function headerWithoutWall(path: string): string {
  return withoutWall(lines(path)[0]);
}

/** A raw line without its `wall` field (written but not hashed: wall-clock data). */
export function withoutWall(line: string): string {
  const { wall: _w, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** The `wall` object of a log's header. */
export function wallOf(path: string): Record<string, unknown> {
  return (JSON.parse(lines(path)[0]) as { wall?: Record<string, unknown> }).wall ?? {};
}

/** Tick numbers of the `tick` lines of a log. */
export function tickNumbers(path: string): number[] {
  return parsed(path)
    .filter((l) => l.type === 'tick')
    .map((l) => l.t);
}

/**
 * Index (= seq) of the last line that belongs to tick `t` in a log: every line with time
 * <= t, up to the tick line of t and the snapshot that follows it, but not the final
 * snapshot and `end` (computed here independently of src/replay's endOfTick).
 */
export function endOfTickIndex(log: Line[], t: number): number {
  const tickLine = log.findIndex((l) => l.type === 'tick' && l.t === t);
  if (tickLine < 0) throw new Error(`no tick ${t} in the log`);
  let k = tickLine;
  while (
    k + 1 < log.length &&
    log[k + 1].t === t &&
    (log[k + 1].type === 'snapshot' || log[k + 1].type === 'intervene') &&
    log[k + 2]?.type !== 'end'
  )
    k++;
  return k;
}

/**
 * Asserts that `child` is a fork of `parent` after tick `t`: the header is the same but
 * for `wall`, lines 1..end of tick t are byte for byte the parent's; without an
 * intervention every later line is the parent's too (but for `wall`); with one
 * (`differs`), the child goes on differently (its first line after the prefix is an
 * `intervene` event, and some later tick line differs from the parent's).
 */
export function expectForkOf(parent: string, child: string, t: number, differs: boolean): void {
  expect(headerWithoutWall(child)).toBe(headerWithoutWall(parent));
  const p = lines(parent);
  const c = lines(child);
  const until = endOfTickIndex(
    p.map((l) => JSON.parse(l) as Line),
    t,
  );
  for (let k = 1; k <= until; k++)
    if (c[k] !== p[k]) expect({ seq: k, line: c[k] }).toEqual({ seq: k, line: p[k] });
  if (!differs) {
    // after the fork tick the child's lines were written anew: equal but for `wall` (LLM latencies)
    expect(c.slice(until + 1).map(withoutWall)).toEqual(p.slice(until + 1).map(withoutWall));
    return;
  }
  expect((JSON.parse(c[until + 1]) as Line).type).toBe('intervene');
  expect((JSON.parse(c[until + 1]) as Line).t).toBe(t);
  const ticksAfter = (raw: string[]) =>
    raw
      .slice(until + 1)
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.type === 'tick')
      .map(({ h: _h, seq: _s, ...rest }) => JSON.stringify(rest));
  expect(ticksAfter(c)).not.toEqual(ticksAfter(p));
}

/** The digest of a log, as `replay --verify` proves it, computed in this process (no child). */
export async function verifyInProcess(path: string): Promise<string> {
  const recorded = await readRecordedRun(path);
  const { def } = await loadWorldFromHeader(recorded.header);
  const r = await rerunLog(recorded, def, { services: replayServices(recorded) });
  return r.digest;
}

/** `grapevine replay <log> --verify --json` in a child process; returns the verified digest. */
export async function verifyCli(path: string): Promise<string> {
  return verifiedDigest(await cliJson(['replay', path, '--verify']));
}

/** `grapevine replay <log> --verify --json` in this test's process; returns the verified digest. */
export async function verifyCliIn(path: string): Promise<string> {
  return verifiedDigest(await cliCheckedJson(['replay', path, '--verify']));
}

function verifiedDigest(r: Record<string, unknown>): string {
  expect(r.verified).toBe(true);
  return r.digest as string;
}

/** Writes a file and returns its path. */
export function write(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Asserts a CLI failure: the exit code, a message on stderr, no stack trace, and no file at `out`. */
export function expectCleanError(r: CliResult, out: string, code: number, message: string | RegExp): void {
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({
    code,
    stderr: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
  });
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(out), `${out} must not exist`).toBe(false);
}

/** A copy of a log with the metrics of its tick line `t` edited and the chain recomputed. */
export function forgeTick(path: string, t: number, out: string): { path: string; seq: number } {
  const raw = lines(path);
  const seq = parsed(path).findIndex((l) => l.type === 'tick' && l.t === t);
  const obj = JSON.parse(raw[seq]) as Line & { metrics: Record<string, number> };
  const key = Object.keys(obj.metrics)[0];
  obj.metrics[key] += 1;
  raw[seq] = JSON.stringify(obj);
  writeFileSync(out, reChain(raw));
  return { path: out, seq };
}

export { reChain };
