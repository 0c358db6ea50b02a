import { describe, expect, it } from 'vitest';
import { checkFileDrivenParams } from '../../src/cli/file-driven-params.ts';
import { ConfigError, RngStreams, SeededStream } from '../../src/core/index.ts';
import {
  type CsrTopology,
  networkFromParams,
  plantedPartition,
  stochasticBlockModel,
  type WorldNetworkParams,
} from '../../src/network/index.ts';
import { meanCi } from '../../src/stats/index.ts';
import { resolveParams, type WorldDefinition } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { hasStack } from '../support/cli.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const SIZES = [300, 500];
const P = [
  [0.03, 0.004],
  [0.004, 0.02],
];
const block = (i: number) => (i < SIZES[0] ? 0 : 1);

/** Edges within block 0, within block 1 and between the two. */
function blockCounts(t: CsrTopology): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < t.size; i++)
    t.forEachNeighbour(i, (j) => {
      if (j <= i) return;
      const [a, b] = [block(i), block(j)];
      c[a === b ? a : 2]++;
    });
  return c;
}

describe('stochasticBlockModel: each pair independently with its block pair probability', () => {
  // each count is Binomial(pairs, p): the mean over seeds must match pairs * p
  const PAIRS = [(300 * 299) / 2, (500 * 499) / 2, 300 * 500];
  const PROB = [P[0][0], P[1][1], P[0][1]];
  const counts = Array.from({ length: 40 }, (_, s) =>
    blockCounts(stochasticBlockModel({ sizes: SIZES, p: P }, new SeededStream(`sbm-${s}`))),
  );

  it.each([0, 1, 2])(
    'edge count %i: the 99 percent CI over 40 seeds holds pairs x p, with binomial spread',
    (k) => {
      const xs = counts.map((c) => c[k]);
      const ci = meanCi(xs, 0.99);
      const expected = PAIRS[k] * PROB[k];
      expect(ci.lo).toBeLessThan(expected);
      expect(ci.hi).toBeGreaterThan(expected);
      // the spread is the binomial one (sd ratio within 0.7..1.4 for 40 samples), not a fixed count
      const sd = Math.sqrt(PAIRS[k] * PROB[k] * (1 - PROB[k]));
      expect(ci.sd / sd).toBeGreaterThan(0.7);
      expect(ci.sd / sd).toBeLessThan(1.4);
    },
  );

  it('keeps the blocks apart when p between them is 0, and fills a block whose p is 1', () => {
    const t = stochasticBlockModel(
      {
        sizes: [5, 7, 4],
        p: [
          [1, 0, 0],
          [0, 0, 0],
          [0, 0, 0.5],
        ],
      },
      new SeededStream('blocks'),
    );
    for (let i = 0; i < 5; i++) expect(t.degree(i)).toBe(4);
    for (let i = 5; i < 12; i++) expect(t.degree(i)).toBe(0);
    for (let i = 12; i < 16; i++) t.forEachNeighbour(i, (j) => expect(j >= 12 && j !== i).toBe(true));
  });

  it('is the same graph for the same seed and another for another seed', () => {
    const build = (seed: string) => stochasticBlockModel({ sizes: SIZES, p: P }, new SeededStream(seed));
    expect(build('x').neighbours).toEqual(build('x').neighbours);
    expect(build('y').neighbours).not.toEqual(build('x').neighbours);
  });
});

describe('the stochastic block model as a world network (blocks, pIn, pOut)', () => {
  const base: WorldNetworkParams = { network: 'stochastic-block-model', n: 10, k: 4, beta: 0.1, m: 2 };

  it('splits n into near-equal blocks, larger ones first, with pIn on the diagonal', () => {
    expect(plantedPartition({ ...base, blocks: 3, pIn: 0.5, pOut: 0.1 })).toEqual({
      kind: 'stochastic-block-model',
      sizes: [4, 3, 3],
      p: [
        [0.5, 0.1, 0.1],
        [0.1, 0.5, 0.1],
        [0.1, 0.1, 0.5],
      ],
    });
  });

  it('builds the graph the generator gives for that spec, from the network stream', () => {
    const p = { ...base, n: 200, blocks: 2, pIn: 0.1, pOut: 0.01 };
    const t = networkFromParams(p, new SeededStream('w')).topology as CsrTopology;
    const direct = stochasticBlockModel(
      {
        sizes: [100, 100],
        p: [
          [0.1, 0.01],
          [0.01, 0.1],
        ],
      },
      new SeededStream('w'),
    );
    expect(t.size).toBe(200);
    expect(t.neighbours).toEqual(direct.neighbours);
  });

  it('is a network option of the rumor world', () => {
    const params = resolveParams(world, {
      n: 60,
      network: 'stochastic-block-model',
      blocks: 3,
      pIn: 0.3,
      pOut: 0,
    });
    const def: WorldDefinition = world;
    const built = def.create({ params, seed: 1, rng: new RngStreams(1) }) as {
      network?: CsrTopology;
    };
    const t = built.network as CsrTopology;
    expect(t.size).toBe(60);
    for (let i = 0; i < 60; i++)
      t.forEachNeighbour(i, (j) => expect(Math.floor(j / 20)).toBe(Math.floor(i / 20)));
    expect(t.edgeCount).toBeGreaterThan(0);
  });

  it('refuses missing parameters and a block count the agents cannot fill', () => {
    expect(() => plantedPartition({ ...base, pIn: 0.1 })).toThrow(
      /network=stochastic-block-model needs blocks, pOut/,
    );
    expect(() => plantedPartition({ ...base, blocks: 11, pIn: 0.1, pOut: 0 })).toThrow(ConfigError);
    expect(() => plantedPartition({ ...base, blocks: 11, pIn: 0.1, pOut: 0 })).toThrow(
      /blocks must be an integer in \[1, n=10\]/,
    );
  });

  it('a block parameter given with a network file is refused as not applied', () => {
    const params = { network: 'csv', networkFile: 'e.csv', pIn: 0.2 };
    expect(() => checkFileDrivenParams(world, { pIn: 0.2 }, params, 10)).toThrow(
      /pIn is not applied: the network comes from networkFile/,
    );
  });

  it('the CLI exits 2 with one line when the block parameters are missing', async () => {
    // in process: what the command decides (exit code, error line), and no resource left open
    const r = await cliInProcess([
      'run',
      'rumor',
      '--set',
      'n=50',
      '--set',
      'network=stochastic-block-model',
    ]);
    expect(r.code).toBe(2);
    expect(r.leaked).toEqual([]);
    expect(r.stderr).toMatch(/^grapevine: network=stochastic-block-model needs blocks, pIn, pOut\n/);
    expect(hasStack(r.stderr)).toBe(false);
  });
});
