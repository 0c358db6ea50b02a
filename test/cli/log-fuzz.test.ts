import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import seedrandom from 'seedrandom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * Seeded random mutations of small logs (plain and gzip): each is either detected
 * (`replay --verify` exits 2 or 1 with a message naming a line or seq) or provably harmless
 * (exit 0 and the decompressed content is byte-identical to the original).
 */
const dir = tempDir();
const logs: Record<string, Buffer> = {};
let stderr = '';

beforeAll(async () => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  for (const [name, args] of [
    ['rumor.ndjson', ['--set', 'n=60', '--ticks', '6']],
    ['rumor-full.ndjson.gz', ['--set', 'n=40', '--ticks', '5', '--log', 'full', '--snapshot-every', '2']],
  ] as const) {
    const out = join(dir, name);
    expect(await main(['run', 'rumor', ...args, '--out', out, '--quiet'])).toBe(0);
    logs[name] = readFileSync(out);
  }
}, 120_000);

afterAll(() => vi.restoreAllMocks());

type Rng = () => number;
const pick = (rng: Rng, n: number) => Math.floor(rng() * n);

/** One mutation of the decompressed text or of the file bytes. */
const MUTATIONS: Record<string, (b: Buffer, rng: Rng, gz: boolean) => Buffer> = {
  flip: (b, rng) => {
    const c = Buffer.from(b);
    c[pick(rng, c.length)] ^= 1 << pick(rng, 8);
    return c;
  },
  insert: (b, rng) => {
    const at = pick(rng, b.length);
    return Buffer.concat([b.subarray(0, at), Buffer.from([pick(rng, 256)]), b.subarray(at)]);
  },
  delete: (b, rng) => {
    const at = pick(rng, b.length);
    return Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
  },
  append: (b, rng) =>
    Buffer.concat([b, Buffer.from(Array.from({ length: 1 + pick(rng, 20) }, () => pick(rng, 256)))]),
  truncate: (b, rng) => b.subarray(0, pick(rng, b.length)),
  'gzip-extra-member': (b, rng, gz) =>
    gz
      ? Buffer.concat([b, gzipSync(rng() < 0.5 ? '' : '{"seq":999}\n')])
      : Buffer.concat([b, Buffer.from('\n')]),
  'gzip-resplit': (b, _rng, gz) => {
    if (!gz) return b;
    const text = gunzipSync(b).toString('utf8');
    const cut = text.indexOf('\n', text.length >> 1) + 1;
    return Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]);
  },
};

function content(b: Buffer, gz: boolean): Buffer | null {
  try {
    return gz ? gunzipSync(b) : b;
  } catch {
    return null;
  }
}

describe('log fuzzing', () => {
  it.each(Object.keys(MUTATIONS))(
    '%s: every mutation is detected or harmless',
    async (kind) => {
      const rng = seedrandom(`fuzz-${kind}`);
      for (const [name, original] of Object.entries(logs)) {
        const gz = name.endsWith('.gz');
        for (let k = 0; k < 6; k++) {
          const path = join(dir, `${kind}-${k}-${name}`);
          // text mutations act on the decompressed lines, then recompress
          const onText = gz && !kind.startsWith('gzip') && rng() < 0.5;
          const mutated = onText
            ? gzipSync(MUTATIONS[kind](gunzipSync(original), rng, false))
            : MUTATIONS[kind](original, rng, gz);
          writeFileSync(path, mutated);
          stderr = '';
          const code = await main(['replay', path, '--verify']);
          const same = content(mutated, gz)?.equals(content(original, gz) as Buffer) ?? false;
          if (code === 0) expect(same, `${path} accepted: ${stderr}`).toBe(true);
          else {
            expect([1, 2], stderr).toContain(code);
            expect(stderr, path).toMatch(/line \d+|seq \d+|not a gzip|empty|header|byte \d+/);
            expect(stderr).not.toContain('unexpected error');
          }
        }
      }
    },
    300_000,
  );
});
