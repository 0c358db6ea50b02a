import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type Json, runWorld } from '../../../src/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { loadTrustWeights } from '../../../worlds/opinion/trust-weights.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('opinion-inputs');

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(params: Record<string, Json>): Promise<ConfigError> {
  const err = await runWorld(world, { params, ticks: 1 }).catch((e) => e);
  expect(err).toBeInstanceOf(ConfigError);
  expect(err.exitCode).toBe(2);
  return err as ConfigError;
}

const ok = file('ok.csv', '0,0,0.5\n0,1,0.5\n1,0,1\n');

describe('trust weights file', () => {
  it('keeps self weights apart and routes each opinion to the agents that listen to it', () => {
    const w = loadTrustWeights(file('dir.csv', 'i,j,w\n0,0,1\n1,0,0.25\n1,1,0.75\n2,0,0.5\n2,1,0.5\n'));
    expect(w.size).toBe(3);
    expect(Array.from(w.self)).toEqual([1, 0.75, 0]);
    expect(w.weight(2, 1)).toBe(0.5);
    expect(w.weight(0, 1)).toBe(0);
    expect(w.heard(2)).toBe(2);
    const listeners = w.listeners();
    const of = (j: number) =>
      Array.from({ length: listeners.degree(j) }, (_, k) => listeners.neighbour(j, k));
    expect([of(0), of(1), of(2)]).toEqual([[1, 2], [2], []]);
  });

  it.each([
    ['negative weight', '0,0,1.5\n0,1,-0.5\n1,1,1\n', ':2: weight -0.5 is negative'],
    ['repeated pair', '0,0,0.5\n0,0,0.5\n1,1,1\n', ':2: weight 0,0 given twice (first on line 1)'],
    ['agent without a row', '0,0,0.5\n0,2,0.5\n2,2,1\n', ': agent 1 has no row'],
    ['fractional index', '0,0,1\n1.5,1,1\n', ':2: 1.5 is not an agent index'],
    ['row sum', '0,0,0.5\n1,1,1\n0,1,0.4\n', ':1: the weights of agent 0 sum to 0.9, not 1'],
  ])('rejects a %s, naming the line', async (_name, text, message) => {
    const path = file('bad.csv', text);
    const err = await failure({ weights: 'file', weightsFile: path });
    expect(err.message).toContain(`${path}${message}`);
  });

  it('accepts rows that sum to 1 within 1e-9 only', async () => {
    const near = file('near.csv', '0,0,0.5\n0,1,0.5000000005\n1,1,1\n');
    await expect(
      runWorld(world, {
        params: { weights: 'file', weightsFile: near },
        ticks: 1,
      }),
    ).resolves.toBeDefined();
    const far = file('far.csv', '0,0,0.5\n0,1,0.500000002\n1,1,1\n');
    expect((await failure({ weights: 'file', weightsFile: far })).message).toContain(
      ':1: the weights of agent 0',
    );
  });

  it('needs the file it is told to read', async () => {
    expect((await failure({ weights: 'file' })).message).toContain('weights=file needs weightsFile');
    expect((await failure({ weights: 'file', weightsFile: join(dir, 'none.csv') })).message).toContain(
      'cannot read the weights file',
    );
  });
});

describe('opinion and susceptibility files', () => {
  it('opinions: every agent exactly once', async () => {
    const base = { weights: 'file', weightsFile: ok, initial: 'file' };
    const twice = file('twice.csv', '0,0.1\n0,0.2\n');
    expect((await failure({ ...base, opinionsFile: twice })).message).toContain(
      `${twice}:2: agent 0 appears twice`,
    );
    const missing = file('missing.csv', '# x0\n0,0.1\n');
    expect((await failure({ ...base, opinionsFile: missing })).message).toContain('no opinion for agent 1');
    const outside = file('outside.csv', '0,0.1\n1,0.2\n2,0.3\n');
    expect((await failure({ ...base, opinionsFile: outside })).message).toContain(
      `${outside}:3: 2 is not an agent`,
    );
  });

  it('susceptibilities must lie in [0, 1]', async () => {
    const bad = file('lambda.csv', '0,0.5\n1,1.5\n');
    const err = await failure({
      weights: 'file',
      weightsFile: ok,
      model: 'friedkin-johnsen',
      susceptibility: 'file',
      susceptibilityFile: bad,
    });
    expect(err.message).toContain(`${bad}:2: susceptibility 1.5 is outside [0, 1]`);
  });

  it('rejects contradictory parameters', async () => {
    expect(
      (await failure({ model: 'hegselmann-krause', weights: 'file', weightsFile: ok })).message,
    ).toContain('hegselmann-krause takes no trust weights');
    expect((await failure({ lambdaMin: 0.6, lambdaMax: 0.5 })).message).toContain('lambdaMin (0.6) exceeds');
  });
});
