import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogWriter } from '../../src/replay/index.ts';
import { type RunLog, runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A RunLog that keeps every line in memory. */
class MemoryLog implements RunLog {
  seq = 0;
  readonly lines: { type: string; t: number; fields: Record<string, unknown> }[] = [];
  append(type: string, t: number, fields: Record<string, unknown>): number {
    this.lines.push({ type, t, fields: structuredClone(fields) });
    return ++this.seq;
  }
  flush(): void {}
  close(): string {
    return '';
  }
}

const dir = tempDir('det');
let counter = 0;

async function digestOf(params: Record<string, unknown>, seed: number, ext = '.ndjson'): Promise<string> {
  const path = join(dir, `run-${counter++}${ext}`);
  const r = await runWorld(world, { params, seed, openLog: (h) => LogWriter.create(path, h) });
  return r.digest;
}

describe('rumour world determinism', () => {
  it('same parameters and seed give the same digest; another seed another digest', async () => {
    const a = await digestOf({ n: 3000 }, 11);
    const b = await digestOf({ n: 3000 }, 11);
    const c = await digestOf({ n: 3000 }, 12);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it.each(['daley-kendall', 'maki-thompson', 'independent-cascade', 'complex-contagion'])(
    '%s is reproducible',
    async (model) => {
      const params = { n: 2000, model, p: 0.3, skeptics: 0.2, debunkers: 0.05 };
      expect(await digestOf(params, 5)).toBe(await digestOf(params, 5));
    },
  );

  it.each(['simultaneous', 'random-order', 'async', 'wake-on-message'])(
    'turn policy %s is reproducible',
    async (turns) => {
      const params = { n: 1000, turns, model: 'maki-thompson' };
      expect(await digestOf(params, 9)).toBe(await digestOf(params, 9));
    },
  );

  it('a gzip log has the same digest as a plain one', async () => {
    expect(await digestOf({ n: 1500 }, 3, '.ndjson.gz')).toBe(await digestOf({ n: 1500 }, 3));
  });

  it('the XState and columnar executors produce the same states and metrics every tick', async () => {
    const logs = await Promise.all(
      (['columnar', 'xstate'] as const).map(async (executor) => {
        const log = new MemoryLog();
        await runWorld(world, {
          params: { n: 400, executor, skeptics: 0.3, debunkers: 0.1 },
          seed: 2,
          openLog: () => log,
        });
        return log.lines.filter((l) => l.type === 'tick');
      }),
    );
    expect(logs[0].length).toBeGreaterThan(5);
    expect(logs[1]).toEqual(logs[0]);
  });

  it('spreading models behave as defined: pairwise models stop, cascades tell each neighbour once', async () => {
    const dk = await runWorld(world, { params: { n: 2000, insiders: 0, spreaders: 3 }, seed: 4 });
    expect(dk.reason).toBe('extinct');
    const rumor = dk.summary.rumor as { reach: number; peak: number };
    expect(rumor.reach).toBeGreaterThan(0.05);
    expect(rumor.reach).toBeLessThan(1);
    // Independent cascade with p = 1 on a connected ring reaches everyone.
    const ic = await runWorld(world, {
      params: {
        n: 500,
        network: 'ring-lattice',
        k: 4,
        model: 'independent-cascade',
        p: 1,
        insiders: 0,
        spreaders: 1,
      },
      seed: 1,
    });
    expect((ic.summary.rumor as { reach: number }).reach).toBe(1);
    // Complex contagion with theta above the degree never spreads.
    const cc = await runWorld(world, {
      params: {
        n: 500,
        network: 'ring-lattice',
        k: 4,
        model: 'complex-contagion',
        theta: 5,
        insiders: 0,
        spreaders: 3,
      },
      seed: 1,
    });
    expect((cc.summary.rumor as { aware: number; reach: number }).reach).toBeLessThan(0.05);
  });

  it('knowing the fact blocks the rumour', async () => {
    const params = { n: 3000, insiders: 200, spreaders: 5 };
    const blocked = await runWorld(world, { params, seed: 8 });
    const open = await runWorld(world, { params: { ...params, factBlocksRumor: false }, seed: 8 });
    const reach = (r: typeof blocked) => (r.summary.rumor as { peak: number }).peak;
    expect(reach(blocked)).toBeLessThan(reach(open));
  });
});
