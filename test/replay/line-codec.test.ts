// The line codec (src/replay/format/line-codec.ts) against the format's own definition
// (docs/LOG-FORMAT.md): a line is canonicalJson of the record with `,"h":"<16 hex>"}` in place
// of its closing brace, and its chain value sha256(prev + "\n" + canonicalJson of the record
// without `wall`). The oracle below is written from that text with node:crypto, not with the
// code under test.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Base64Text, canonicalJson } from '../../src/core/index.ts';
import { LineCodec, lineSize, lineText, streamLine } from '../../src/replay/format/line-codec.ts';

function oracle(record: Record<string, unknown>, prev: string): { text: string; chain: string } {
  const { wall: _wall, ...hashed } = record;
  const chain = createHash('sha256')
    .update(`${prev}\n${canonicalJson(hashed)}`)
    .digest('hex');
  return { text: `${canonicalJson(record).slice(0, -1)},"h":"${chain.slice(0, 16)}"}`, chain };
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const columnBytes = (n: number, seed: number): Uint8Array => {
  const rand = prng(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
};

/** streamLine's output through a buffer of `size` bytes: the bytes written, the writes' sizes and the chain. */
function streamed(
  record: { type: string; t: number; seq: number; fields: Record<string, unknown> },
  prev: string,
  size: number,
) {
  const chunks: Buffer[] = [];
  const body = new LineCodec().event(record.type, record.t, record.seq, record.fields);
  const chain = streamLine(body, prev, Buffer.alloc(size), (b) => chunks.push(Buffer.from(b)));
  return { bytes: Buffer.concat(chunks), writes: chunks.map((c) => c.length), chain, size: lineSize(body) };
}

describe('LineCodec', () => {
  it('writes every line as the format defines it: canonical JSON, h last, wall outside the chain', () => {
    const codec = new LineCodec();
    const prev = 'a'.repeat(64);
    const cases: Record<string, unknown>[] = [
      { b: 1, a: [1, 'é', null], z: { y: -0, x: 1e21 } },
      { note: 'line\nbreak "quoted" \u2028', wall: { ms: 12, at: 'now' }, zz: true },
      { wall: {} },
      { a: 1, wall: { nested: { deep: [1, 2] } } },
    ];
    for (const fields of cases) {
      const line = lineText(codec.event('act', 3, 7, fields), prev);
      expect(line).toEqual(oracle({ ...fields, seq: 7, t: 3, type: 'act' }, prev));
    }
    const header = {
      type: 'header',
      seq: 0,
      t: 0,
      format: 'grapevine-log/3',
      wall: { startedAt: 'x' },
      seed: 5,
    };
    expect(codec.encode(header, null)).toEqual(oracle(header, 'grapevine-log/3'));
  });

  it('refuses what is not JSON, naming the field, and a wall that is not an object', () => {
    const codec = new LineCodec();
    expect(() => lineText(codec.event('act', 1, 1, { x: { y: Number.NaN } }), 'a')).toThrow(
      /non-finite number at \$\.x\.y/,
    );
    expect(() => lineText(codec.event('act', 1, 1, { wall: [1] }), 'a')).toThrow(/wall/);
    expect(() => lineText(codec.event('act', 1, 1, { wall: null }), 'a')).toThrow(/wall/);
  });

  it('streams a long snapshot line with the bytes and chain of its text, through a small reused buffer', () => {
    const whole = columnBytes(700_003, 3);
    const state = {
      columns: [1, 49_151, 49_152, 49_153, 300_001, 1_000_000].map(
        (n, i) => new Base64Text(columnBytes(n, i)),
      ),
      view: new Base64Text(whole.subarray(5, 650_000)),
      // characters of 2 to 4 UTF-8 bytes, longer than the buffer
      text: `${'é✓😀'.repeat(60_000)}x`,
      tick: 5,
    };
    const asText = JSON.parse(JSON.stringify(state));
    for (const [seq, prev, size] of [
      [12, 'c'.repeat(64), 1 << 18],
      [1000, 'd'.repeat(64), 4096],
    ] as const) {
      const out = streamed({ type: 'snapshot', t: 5, seq, fields: { state } }, prev, size);
      const want = oracle({ state: asText, seq, t: 5, type: 'snapshot' }, prev);
      expect(out.chain).toBe(want.chain);
      expect(out.bytes.toString('latin1')).toBe(Buffer.from(`${want.text}\n`).toString('latin1'));
      expect(out.size).toBe(out.bytes.length - 1);
      expect(Math.max(...out.writes)).toBeLessThanOrEqual(size);
      expect(out.writes.length).toBeGreaterThan(10);
      // the text sink gives the same line
      const body = new LineCodec().event('snapshot', 5, seq, { state });
      expect(lineText(body, prev)).toEqual(want);
    }
  });

  it("reuses a snapshot's JSON only for the same state object right after", () => {
    const state = { tick: 5, cols: ['AAAA', 'BBBB'] };
    const line = (codec: LineCodec, type: string, seq: number, fields: Record<string, unknown>) =>
      lineText(codec.event(type, 5, seq, fields), 'c'.repeat(64)).text;
    const codec = new LineCodec();
    line(codec, 'snapshot', 1, { state });
    state.cols[0] = 'CCCC'; // the engine changes nothing between its two snapshots: this change is not seen
    expect(line(codec, 'snapshot', 2, { state })).toContain('"AAAA"');
    // a line between the two, or another object: encoded afresh
    line(codec, 'tick', 3, { state: 'x' });
    expect(line(codec, 'snapshot', 4, { state })).toContain('"CCCC"');
    expect(line(codec, 'snapshot', 5, { state: { ...state, tick: 6 } })).toContain('"tick":6');
  });
});
