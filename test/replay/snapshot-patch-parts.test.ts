// A snapshot patch built from the line's parts (its JSON around the columns, the columns as
// Base64Text views, compared chunk by chunk with the base) must be exactly the patch and
// chain of the full line: the line encoded as the writer encodes it, then diffed.
import { describe, expect, it } from 'vitest';
import { Base64Text } from '../../src/core/index.ts';
import { LineEncoder } from '../../src/replay/format/line-codec.ts';
import { parseSnapshotLine } from '../../src/replay/read/snapshot-line.ts';
import { diffLine, snapshotPatch } from '../../src/replay/write/patch-sink.ts';

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

interface Shape {
  columns: Uint8Array[];
  history: number[];
}

function stateOf(s: Shape, tick: number): Record<string, unknown> {
  return {
    tick,
    history: s.history.map((v, i) => ({ informed: v, t: i })),
    executor: {
      kind: 'columnar',
      size: s.columns[0].length,
      columns: s.columns.map((c) => new Base64Text(c)),
      hash: [tick, 7],
    },
    world: { note: 'x'.repeat(5000), small: 'é' },
  };
}

/** The full line (without `\n`) and chain as the writer's usual path makes them. */
function fullLine(state: Record<string, unknown>, seq: number, t: number): { line: Buffer; chain: string } {
  const encoded = new LineEncoder().encodeEvent('snapshot', t, seq, { state }, PREV);
  return { line: Buffer.from(encoded.text, 'utf8'), chain: encoded.chain };
}

/**
 * Changes `count` runs of bytes of `c` (each up to `run` bytes long); with `count` 0 and `run`
 * 1, pairs of single bytes 1 to 24 bytes apart (changes on both sides of the gap up to which
 * the diff merges them, some across the chunks the columns are compared in).
 */
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
    const n = 1 + Math.floor(next() * run);
    for (let i = at; i < Math.min(c.length, at + n); i++) c[i] = Math.floor(next() * 256);
  }
}

describe('snapshotPatch', () => {
  const sizes = [30_000, 12_001, 5_000, 2_000, 100_000];
  for (const [name, count, run] of [
    ['a few scattered bytes', 20, 1],
    ['clustered runs', 60, 300],
    ['pairs of changes at every distance', 0, 1],
    ['no change in the columns', 0, 0],
  ] as const) {
    it(`gives the full line's patch and chain (${name})`, () => {
      const next = rng(count * 31 + run + 5);
      const columns = sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
      const history = Array.from({ length: 400 }, (_, i) => i * 3);
      const base = fullLine(stateOf({ columns, history }, 450), 460, 450).line;
      const later = columns.map((c) => c.slice());
      for (const c of later) mutate(c, next, count, run);
      const state = stateOf({ columns: later, history: [...history, 1201, 1300] }, 500);
      const { line, chain } = fullLine(state, 511, 500);
      const parts = new LineEncoder().eventParts('snapshot', 500, 511, { state });
      expect(parts).toBeDefined();
      // the columns of at least 16 Ki characters stay Base64Texts, not encoded
      expect(parts?.filter((p) => p instanceof Base64Text)).toHaveLength(2);
      const made = snapshotPatch(base, parts ?? [], PREV, 0.5);
      expect(made?.chain).toBe(chain);
      const expected = diffLine(base, line, line.length * 0.5);
      expect(expected).toBeDefined();
      expect(made?.patch).toEqual(expected);
      // the same state again (a final snapshot right after the periodic one): its columns' changes are reused
      const again = snapshotPatch(base, parts ?? [], PREV, 0.5, made?.changes);
      expect(again?.patch).toEqual(expected);
      expect(again?.chain).toBe(chain);
    });
  }

  it('gives no patch when it would be over its share of the line, and the chain all the same', () => {
    const next = rng(9);
    const columns = sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
    const base = fullLine(stateOf({ columns, history: [1] }, 450), 460, 450).line;
    const later = columns.map((c) => Uint8Array.from(c, () => Math.floor(next() * 256)));
    const state = stateOf({ columns: later, history: [1] }, 500);
    const parts = new LineEncoder().eventParts('snapshot', 500, 511, { state }) ?? [];
    const made = snapshotPatch(base, parts, PREV, 0.5);
    expect(made?.patch).toBeUndefined();
    expect(made?.chain).toBe(fullLine(state, 511, 500).chain);
  });

  it('declines a line whose columns do not pair with the base (another length)', () => {
    const next = rng(11);
    const columns = sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
    const base = fullLine(stateOf({ columns, history: [1] }, 450), 460, 450).line;
    const longer = columns.map((c, k) => (k === 0 ? Uint8Array.from({ length: c.length + 3 }) : c));
    const parts = new LineEncoder().eventParts('snapshot', 500, 511, {
      state: stateOf({ columns: longer, history: [1] }, 500),
    });
    expect(snapshotPatch(base, parts ?? [], PREV, 0.5)).toBeUndefined();
  });

  it("gives the full line's patch and chain for a snapshot part (a slice of a column)", () => {
    const next = rng(13);
    const bytes = Uint8Array.from({ length: 3 * 8192 }, () => Math.floor(next() * 256));
    const part = (data: unknown, seq: number) => ({
      data,
      index: 2,
      of: seq + 4,
      path: ['executor', 'columns', 1],
    });
    const baseLine = new LineEncoder().encodeEvent(
      'snapshot-part',
      450,
      455,
      part(new Base64Text(bytes).toString(), 455),
      PREV,
    );
    const base = Buffer.from(baseLine.text, 'utf8');
    const later = bytes.slice();
    mutate(later, next, 30, 40);
    const fields = part(new Base64Text(later), 507);
    const full = new LineEncoder().encodeEvent(
      'snapshot-part',
      500,
      507,
      part(new Base64Text(later).toString(), 507),
      PREV,
    );
    const line = Buffer.from(full.text, 'utf8');
    const parts = new LineEncoder().eventParts('snapshot-part', 500, 507, fields) ?? [];
    expect(parts.filter((p) => p instanceof Base64Text)).toHaveLength(1);
    const made = snapshotPatch(base, parts, PREV, 0.5);
    expect(made?.chain).toBe(full.chain);
    expect(made?.patch).toEqual(diffLine(base, line, line.length * 0.5));
    expect(made?.patch).toBeDefined();
  });

  it('patches against a restored line with the long strings its parse found, as against a copy of it', () => {
    const next = rng(17);
    const columns = sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
    const history = Array.from({ length: 300 }, (_, i) => i);
    const restored = fullLine(stateOf({ columns, history }, 450), 460, 450).line;
    const copy = Buffer.from(restored);
    // the long string outside the columns (world.note) is among the ranges too
    expect(parseSnapshotLine(restored)).toBeDefined();
    const later = columns.map((c) => c.slice());
    for (const c of later) mutate(c, next, 40, 50);
    const state = stateOf({ columns: later, history: [...history, 7] }, 500);
    const parts = new LineEncoder().eventParts('snapshot', 500, 511, { state }) ?? [];
    const fromParse = snapshotPatch(restored, parts, PREV, 0.5);
    const fromScan = snapshotPatch(copy, parts, PREV, 0.5);
    expect(fromParse?.patch).toBeDefined();
    expect(fromParse?.patch).toEqual(fromScan?.patch);
    expect(fromParse?.chain).toBe(fullLine(state, 511, 500).chain);
  });

  it('encodes the state of a snapshot given as parts again only when another event came between', () => {
    const next = rng(19);
    const columns = [Uint8Array.from({ length: 30_000 }, () => Math.floor(next() * 256))];
    const state = stateOf({ columns, history: [1, 2] }, 500);
    const encoder = new LineEncoder();
    const first = encoder.eventParts('snapshot', 500, 511, { state }) ?? [];
    const second = encoder.eventParts('snapshot', 500, 512, { state }) ?? [];
    // the same column objects: the state's JSON was not walked again
    expect(second.filter((p) => p instanceof Base64Text)).toEqual(
      first.filter((p) => p instanceof Base64Text),
    );
    expect(
      Buffer.concat(second.map((p) => (p instanceof Base64Text ? Buffer.from(p.toString()) : p))),
    ).toEqual(
      Buffer.concat(
        (new LineEncoder().eventParts('snapshot', 500, 512, { state }) ?? []).map((p) =>
          p instanceof Base64Text ? Buffer.from(p.toString()) : p,
        ),
      ),
    );
    // a state changed in place after another event is encoded anew
    encoder.encodeEvent('tick', 501, 513, {}, PREV);
    (state.history as unknown[]).push({ informed: 9, t: 2 });
    const third = encoder.eventParts('snapshot', 501, 514, { state }) ?? [];
    const text = Buffer.concat(third.filter((p) => Buffer.isBuffer(p)) as Buffer[]).toString();
    expect(text).toContain('{"informed":9,"t":2}');
  });

  it('leaves a line with a wall field to the usual path', () => {
    const state = stateOf({ columns: [new Uint8Array(30_000)], history: [] }, 1);
    expect(new LineEncoder().eventParts('snapshot', 1, 2, { state, wall: { x: 1 } })).toBeUndefined();
  });
});
