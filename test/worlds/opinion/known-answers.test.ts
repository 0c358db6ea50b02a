import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Json, runWorld } from '../../../src/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { countClusters } from '../../../worlds/opinion/metrics.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('opinion');

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// W written out by hand (rows sum to 1): agent 0 listens to itself and 1, agent 1 to all
// three, agent 2 to 1 and itself. Its left Perron vector is π = (1/4, 1/2, 1/4).
const W = file('w.csv', 'i,j,w\n0,0,0.5\n0,1,0.5\n1,0,0.25\n1,1,0.5\n1,2,0.25\n2,1,0.5\n2,2,0.5\n');
const X0 = file('x0.csv', '0,1\n1,0\n2,0\n');

async function opinionsAfter(ticks: number, params: Record<string, Json>): Promise<Record<string, Json>> {
  const r = await runWorld(world, {
    params: { reportOpinions: true, tolerance: 1e-15, ...params },
    ticks,
  });
  return r.summary;
}

describe('opinion world: hand-computed answers on 3 agents', () => {
  it('DeGroot with W from a file: x(t) = W^t x(0), by hand', async () => {
    const p = { model: 'degroot', weights: 'file', weightsFile: W, initial: 'file', opinionsFile: X0 };
    expect((await opinionsAfter(1, p)).finalOpinions).toEqual([1 / 2, 1 / 4, 0]);
    expect((await opinionsAfter(2, p)).finalOpinions).toEqual([3 / 8, 1 / 4, 1 / 8]);
    expect((await opinionsAfter(3, p)).finalOpinions).toEqual([5 / 16, 1 / 4, 3 / 16]);
    // consensus π·x(0) = 1/4
    const end = await opinionsAfter(500, p);
    expect(end.converged).toBe(true);
    expect(end.consensus as number).toBeCloseTo(1 / 4, 12);
    expect(end.predicted as number).toBeCloseTo(1 / 4, 15);
  });

  it('DeGroot with equal network weights on the path 0-1-2, and its predicted consensus 2/7', async () => {
    const p = {
      model: 'degroot',
      network: 'csv',
      networkFile: file('path.csv', '0,1\n1,2\n'),
      initial: 'file',
      opinionsFile: X0,
    };
    const one = (await opinionsAfter(1, p)).finalOpinions as number[];
    const two = (await opinionsAfter(2, p)).finalOpinions as number[];
    [1 / 2, 1 / 3, 0].forEach((v, i) => {
      expect(one[i]).toBeCloseTo(v, 15);
    });
    [5 / 12, 5 / 18, 1 / 6].forEach((v, i) => {
      expect(two[i]).toBeCloseTo(v, 15);
    });
    const end = await opinionsAfter(1000, p);
    expect(end.predicted as number).toBeCloseTo(2 / 7, 15);
    expect(end.consensus as number).toBeCloseTo(2 / 7, 12);
    expect(end.clusters).toBe(1);
  });

  it('Friedkin–Johnsen: x(t+1) = ΛWx(t) + (I−Λ)u by hand, steady state (4/5, 2/5, 0)', async () => {
    const p = {
      model: 'friedkin-johnsen',
      weights: 'file',
      weightsFile: W,
      initial: 'file',
      opinionsFile: X0,
      susceptibility: 'file',
      susceptibilityFile: file('lambda.csv', '0,0.5\n1,1\n2,0\n'),
    };
    expect((await opinionsAfter(1, p)).finalOpinions).toEqual([3 / 4, 1 / 4, 0]);
    expect((await opinionsAfter(2, p)).finalOpinions).toEqual([3 / 4, 5 / 16, 0]);
    const summary = await opinionsAfter(1000, p);
    const end = summary.finalOpinions as number[];
    expect(summary.predicted as number).toBeCloseTo((4 / 5 + 2 / 5) / 3, 15);
    expect(summary.steadyStateError as number).toBeLessThan(1e-12);
    [4 / 5, 2 / 5, 0].forEach((v, i) => {
      expect(end[i]).toBeCloseTo(v, 12);
    });
  });

  it('Hegselmann–Krause, well-mixed: the bound ε is inclusive; consensus after two steps', async () => {
    const p = {
      model: 'hegselmann-krause',
      network: 'complete',
      n: 3,
      epsilon: 0.25,
      initial: 'file',
      opinionsFile: file('hk.csv', '0,0\n1,0.25\n2,0.5\n'),
    };
    expect((await opinionsAfter(1, p)).finalOpinions).toEqual([0.125, 0.25, 0.375]);
    const two = await opinionsAfter(2, p);
    expect(two.finalOpinions).toEqual([0.25, 0.25, 0.25]);
    expect(two.clusters).toBe(1);
    const r = await runWorld(world, { params: p, ticks: 100 });
    expect(r.reason).toBe('converged');
    expect(r.ticks).toBe(3);
  });

  it('Hegselmann–Krause: agents farther than ε apart never move towards each other', async () => {
    const p = {
      model: 'hegselmann-krause',
      network: 'complete',
      n: 3,
      epsilon: 0.3,
      initial: 'file',
      opinionsFile: file('hk2.csv', '0,0\n1,0.25\n2,0.6\n'),
    };
    const end = await opinionsAfter(100, p);
    expect(end.finalOpinions).toEqual([0.125, 0.125, 0.6]);
    expect(end.clusters).toBe(2);
  });

  it('no predicted consensus when W has no unique left Perron vector', async () => {
    const p = { model: 'degroot', weights: 'file', weightsFile: file('id.csv', '0,0,1\n1,1,1\n') };
    const end = await opinionsAfter(5, p);
    expect(end.predicted).toBeNull();
    expect(end.clusters).toBe(2);
    // two closed groups {0,1} and {2,3}: π is not unique either
    const blocks = file(
      'blocks.csv',
      '0,0,0.3\n0,1,0.7\n1,0,0.6\n1,1,0.4\n2,2,0.9\n2,3,0.1\n3,2,0.2\n3,3,0.8\n',
    );
    expect((await opinionsAfter(5, { ...p, weightsFile: blocks })).predicted).toBeNull();
  });

  it('an agent who hears nothing keeps its opinion', async () => {
    const p = {
      model: 'degroot',
      network: 'csv',
      networkFile: file('lone.csv', '0,1\n2,2\n'),
      initial: 'file',
      opinionsFile: X0,
    };
    const end = await opinionsAfter(3, p);
    expect(end.finalOpinions).toEqual([0.5, 0.5, 0]);
  });
});

describe('cluster rule', () => {
  it('splits sorted opinions where the gap exceeds the threshold', () => {
    expect(countClusters([0.5, 0.1, 0.1005, 0.9], 1e-3)).toBe(3);
    expect(countClusters([0.1, 0.102], 1e-3)).toBe(2);
    expect(countClusters([], 1e-3)).toBe(0);
  });
});
