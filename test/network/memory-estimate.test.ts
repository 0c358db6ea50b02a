import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/index.ts';
import { checkRunFits, estimateRunBytes, MIN_BYTES_PER_AGENT } from '../../src/network/index.ts';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const GIB = 1024 ** 3;
const ws = (n: number) => ({ network: 'watts-strogatz' as const, n, k: 10, m: 2 });

describe('memory estimate before a population is built (issue 15, item 10)', () => {
  it('counts the per-agent floor and 8 bytes per arc of the network being built', () => {
    expect(estimateRunBytes(ws(1000))).toBe(1000 * (MIN_BYTES_PER_AGENT + 80));
    expect(estimateRunBytes({ network: 'barabasi-albert', n: 1000, k: 10, m: 3 })).toBe(
      1000 * (MIN_BYTES_PER_AGENT + 48),
    );
    expect(estimateRunBytes({ network: 'complete', n: 1000, k: 10, m: 2 })).toBe(1000 * MIN_BYTES_PER_AGENT);
  });

  it('counts the stochastic block model by its expected degree, not by k', () => {
    // 4 blocks of 250: 249 × 0.1 within + 750 × 0.01 across = 24.9 + 7.5 = 32.4 arcs per agent
    const sbm = {
      network: 'stochastic-block-model' as const,
      n: 1000,
      k: 10,
      m: 2,
      blocks: 4,
      pIn: 0.1,
      pOut: 0.01,
    };
    expect(estimateRunBytes(sbm)).toBeCloseTo(1000 * (MIN_BYTES_PER_AGENT + 8 * 32.4), 6);
    const dense = { ...sbm, n: 10_000_000, blocks: 1, pIn: 0.5, pOut: 0 };
    expect(() => checkRunFits(dense, 24 * GIB)).toThrow(/needs at least/);
  });

  it('stays below what runs measured (a lower bound never refuses a run that fits)', () => {
    // bench/scale.ts: 3.0 GB peak RSS at 10^7 agents, 600 MB at 10^6 (Maki–Thompson, WS k=10)
    expect(estimateRunBytes(ws(10_000_000))).toBeLessThan(3.0e9);
    expect(estimateRunBytes(ws(1_000_000))).toBeLessThan(0.6e9);
  });

  it('refuses, naming what it needs and what there is, only what cannot fit', () => {
    expect(() => checkRunFits(ws(10_000_000), 24 * GIB)).not.toThrow();
    expect(() => checkRunFits(ws(100_000_000), 24 * GIB)).toThrow(ConfigError);
    expect(() => checkRunFits(ws(100_000_000), 24 * GIB)).toThrow(
      /needs at least 26\.1 GiB .* has 24\.0 GiB/,
    );
  });

  it('a run too large for this machine exits 2 at once with one line and writes nothing', async () => {
    const dir = tempDir('too-big');
    const r = await cli(['run', 'rumor', '--set', 'n=1000000000000', '--out', `${dir}/big.ndjson`], {
      timeoutMs: 60_000,
    });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^grapevine: n=1000000000000 needs at least \d+\.\d GiB of memory/);
    expect(hasStack(r.stderr)).toBe(false);
  });
});
