// The patch sink writes a delta child's snapshot line as a patch against its base while the
// line's pieces are compared with the base; its ops, data and chain must be those of the
// whole line encoded and diffed the plain way (test/support/patch-oracle.ts), and the patch
// must turn the base back into the line.
import { describe, expect, it } from 'vitest';
import { Base64Text } from '../../src/core/index.ts';
import { LineCodec, lineText } from '../../src/replay/format/line-codec.ts';
import { applyPatch } from '../../src/replay/format/snapshot-patch.ts';
import { parseSnapshotLine } from '../../src/replay/read/snapshot-line.ts';
import { PatchSink } from '../../src/replay/write/patch-sink.ts';
import { diffLine } from '../support/patch-oracle.ts';

const PREV = 'ab'.repeat(32);

/** A deterministic pseudo-random generator (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const random = (n: number, next: () => number) =>
  Uint8Array.from({ length: n }, () => Math.floor(next() * 256));

function stateOf(columns: Uint8Array[], history: number[], tick: number): Record<string, unknown> {
  return {
    tick,
    history: history.map((v, i) => ({ informed: v, t: i })),
    executor: {
      kind: 'columnar',
      size: columns[0].length,
      columns: columns.map((c) => new Base64Text(c)),
      hash: [tick, 7],
    },
    world: { note: 'x'.repeat(5000), small: 'é' },
  };
}

/** The full line of an event (without `\n`) and its chain, as the text sink makes them. */
function full(type: string, t: number, seq: number, fields: Record<string, unknown>) {
  const line = lineText(new LineCodec().event(type, t, seq, fields), PREV);
  return { line: Buffer.from(line.text, 'utf8'), chain: line.chain };
}

/** Changes `count` runs of bytes of `c` (each up to `run` bytes); with `count` 0, pairs of single bytes 1 to 24 apart. */
function mutate(c: Uint8Array, next: () => number, count: number, run: number): void {
  if (count === 0 && run === 1)
    for (let d = 1; d <= 24; d++)
      for (const at of [1013 * d, 3072 * d - 2]) {
        if (at + d >= c.length) continue;
        c[at] ^= 0xff;
        c[at + d] ^= 0xff;
      }
  for (let k = 0; k < count; k++) {
    const at = Math.floor(next() * c.length);
    for (let i = at; i < Math.min(c.length, at + 1 + Math.floor(next() * run)); i++)
      c[i] = Math.floor(next() * 256);
  }
}

/** Patches the event against `base` with a fresh sink and checks it against the oracle; returns what the sink made. */
function check(
  base: Buffer,
  type: string,
  t: number,
  seq: number,
  fields: Record<string, unknown>,
  sink = new PatchSink(),
) {
  const want = full(type, t, seq, fields);
  const made = sink.patch(new LineCodec().event(type, t, seq, fields), PREV, { seq: 1, bytes: base }, 0.5);
  expect(made.chain).toBe(want.chain);
  expect(made.patch).toEqual(diffLine(base, want.line, want.line.length * 0.5));
  if (made.patch) expect(applyPatch(base, made.patch.ops, made.patch.data)?.equals(want.line)).toBe(true);
  return made;
}

describe('PatchSink', () => {
  const sizes = [30_000, 12_001, 5_000, 2_000, 100_000];
  for (const [name, count, run] of [
    ['a few scattered bytes', 20, 1],
    ['clustered runs', 60, 300],
    ['pairs of changes at every distance', 0, 1],
    ['no change in the columns', 0, 0],
  ] as const)
    it(`gives the whole line's patch and chain (${name})`, () => {
      const next = rng(count * 31 + run + 5);
      const columns = sizes.map((n) => random(n, next));
      const history = Array.from({ length: 400 }, (_, i) => i * 3);
      const base = full('snapshot', 450, 460, { state: stateOf(columns, history, 450) }).line;
      const later = columns.map((c) => c.slice());
      for (const c of later) mutate(c, next, count, run);
      const state = stateOf(later, [...history, 1201, 1300], 500);
      const made = check(base, 'snapshot', 500, 511, { state });
      expect(made.patch).toBeDefined();
      // the same state right after (a final snapshot): its columns' changes are reused, same patch
      const body = new LineCodec().event('snapshot', 500, 512, { state });
      const again = new PatchSink().patch(body, PREV, { seq: 1, bytes: base }, 0.5, made.changes);
      expect(again.patch).toEqual(check(base, 'snapshot', 500, 512, { state }).patch);
    });

  it('writes the whole line when the patch would be over its share, and its chain all the same', () => {
    const next = rng(9);
    const columns = sizes.map((n) => random(n, next));
    const base = full('snapshot', 450, 460, { state: stateOf(columns, [1], 450) }).line;
    const made = check(base, 'snapshot', 500, 511, {
      state: stateOf(
        columns.map((c) => random(c.length, next)),
        [1],
        500,
      ),
    });
    expect(made.patch).toBeUndefined();
  });

  it('pairs columns of another length, short columns, and lines whose long strings do not pair, as the oracle does', () => {
    const next = rng(11);
    const columns = sizes.map((n) => random(n, next));
    const base = full('snapshot', 450, 460, { state: stateOf(columns, [1], 450) }).line;
    const longer = columns.map((c, k) => (k === 0 ? random(c.length + 3, next) : c));
    check(base, 'snapshot', 500, 511, { state: stateOf(longer, [1], 500) });
    const shorter = columns.map((c, k) => (k === 1 ? c.subarray(0, 900) : c));
    check(base, 'snapshot', 500, 511, { state: stateOf(shorter, [1], 500) });
    const fewer = columns.slice(1);
    check(base, 'snapshot', 500, 511, { state: stateOf(fewer, [1], 500) });
    const small = columns.map((c) => c.subarray(0, 100));
    check(full('snapshot', 450, 460, { state: stateOf(small, [1], 450) }).line, 'snapshot', 500, 511, {
      state: stateOf(
        small.map((c) => c.map((x) => x ^ 1)),
        [2],
        500,
      ),
    });
  });

  it("gives a snapshot part's patch (a slice of a column)", () => {
    const next = rng(13);
    const bytes = random(3 * 8192, next);
    const part = (data: unknown, seq: number) => ({
      data,
      index: 2,
      of: seq + 4,
      path: ['executor', 'columns', 1],
    });
    const base = full('snapshot-part', 450, 455, part(new Base64Text(bytes).toString(), 455)).line;
    const later = bytes.slice();
    mutate(later, next, 30, 40);
    expect(check(base, 'snapshot-part', 500, 507, part(new Base64Text(later), 507)).patch).toBeDefined();
    expect(
      check(base, 'snapshot-part', 500, 507, part([new Base64Text(later), new Base64Text(bytes)], 507)).patch,
    ).toBeUndefined();
  });

  it('patches against a restored line with the long strings its parse found, as against a copy', () => {
    const next = rng(17);
    const columns = sizes.map((n) => random(n, next));
    const history = Array.from({ length: 300 }, (_, i) => i);
    const restored = full('snapshot', 450, 460, { state: stateOf(columns, history, 450) }).line;
    const parsed = parseSnapshotLine(restored);
    expect(parsed?.longStrings.length).toBe(2 * 5); // the four columns of 4096 characters or more, and world.note
    const later = columns.map((c) => c.slice());
    for (const c of later) mutate(c, next, 40, 50);
    const state = stateOf(later, [...history, 7], 500);
    const body = () => new LineCodec().event('snapshot', 500, 511, { state });
    const fromParse = new PatchSink().patch(
      body(),
      PREV,
      { seq: 1, bytes: restored, longStrings: parsed?.longStrings },
      0.5,
    );
    expect(fromParse).toEqual(check(Buffer.from(restored), 'snapshot', 500, 511, { state }));
  });
});
