import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UndirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, SeededStream } from '../../src/core/index.ts';
import {
  CompleteTopology,
  CsrTopology,
  generateNetwork,
  type NetworkSpec,
  networkSpecSchema,
} from '../../src/network/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('spec');

const specs: NetworkSpec[] = [
  { kind: 'ring-lattice', n: 20, k: 4 },
  { kind: 'watts-strogatz', n: 100, k: 4, beta: 0.1 },
  { kind: 'erdos-renyi', n: 100, p: 0.05 },
  { kind: 'erdos-renyi', n: 100, m: 120 },
  { kind: 'barabasi-albert', n: 100, m: 2 },
  {
    kind: 'stochastic-block-model',
    sizes: [50, 50],
    p: [
      [0.1, 0.01],
      [0.01, 0.1],
    ],
  },
  { kind: 'complete', n: 10 },
];

describe('networkSpecSchema', () => {
  it('accepts every generator spec unchanged', () => {
    for (const spec of specs) expect(networkSpecSchema.parse(spec)).toEqual(spec);
    expect(networkSpecSchema.parse({ kind: 'csv', path: 'a.csv' })).toEqual({ kind: 'csv', path: 'a.csv' });
  });

  it('embeds in a world parameter schema', () => {
    const params = z.object({ agents: z.number(), network: networkSpecSchema });
    const parsed = params.parse({ agents: 3, network: { kind: 'complete', n: 3 } });
    expect(parsed.network.kind).toBe('complete');
  });

  it('rejects unknown kinds, unknown keys, bad ranges and p with m', () => {
    const fails = (v: unknown) => expect(networkSpecSchema.safeParse(v).success).toBe(false);
    fails({ kind: 'small-world', n: 10 });
    fails({ kind: 'watts-strogatz', n: 10, k: 4, bta: 0.1 });
    fails({ kind: 'watts-strogatz', n: 10, k: 4, beta: 1.1 });
    fails({ kind: 'complete', n: 0 });
    fails({ kind: 'csv', path: '' });
    const both = networkSpecSchema.safeParse({ kind: 'erdos-renyi', n: 10, p: 0.1, m: 3 });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0].message).toMatch(/exactly one of p .* or m/);
    fails({ kind: 'erdos-renyi', n: 10 });
  });
});

describe('generateNetwork', () => {
  it('dispatches on kind and names the topology after it', () => {
    for (const spec of specs) {
      const t = generateNetwork(spec, new SeededStream('dispatch'));
      expect(t.kind).toBe(spec.kind);
      expect(t.size).toBe('n' in spec ? spec.n : 100);
    }
    expect(generateNetwork({ kind: 'complete', n: 4 }, new SeededStream('x'))).toBeInstanceOf(
      CompleteTopology,
    );
  });

  it('is deterministic for a seed', () => {
    for (const spec of specs.slice(1, 6)) {
      const a = generateNetwork(spec, new SeededStream('same')) as CsrTopology;
      const b = generateNetwork(spec, new SeededStream('same')) as CsrTopology;
      expect(b.neighbours).toEqual(a.neighbours);
    }
  });

  it('loads files, resolving relative paths against baseDir', () => {
    writeFileSync(join(dir, 'edges.csv'), 'a,b\nb,c\n');
    const g = new UndirectedGraph();
    g.mergeEdge('x', 'y');
    writeFileSync(join(dir, 'graph.json'), JSON.stringify(g.export()));
    const rng = new SeededStream('files');
    const csv = generateNetwork({ kind: 'csv', path: 'edges.csv' }, rng, { baseDir: dir });
    expect(csv).toBeInstanceOf(CsrTopology);
    expect(csv.edgeCount).toBe(2);
    const json = generateNetwork({ kind: 'graphology-json', path: join(dir, 'graph.json') }, rng);
    expect(json.edgeCount).toBe(1);
  });

  it('passes generator errors through as ConfigError', () => {
    expect(() =>
      generateNetwork({ kind: 'watts-strogatz', n: 10, k: 5, beta: 0 }, new SeededStream('x')),
    ).toThrow(ConfigError);
    expect(() =>
      generateNetwork({ kind: 'csv', path: 'missing.csv' }, new SeededStream('x'), { baseDir: dir }),
    ).toThrow(/cannot read edge list .*missing.csv: no such file/);
  });
});
