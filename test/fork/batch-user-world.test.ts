// A fork batch of a world written outside the checkout (test/support/user-sir-world.ts, a
// user's SIR model importing 'grapevine'): fork --replicates, diff and report through the
// compiled CLI, in that folder, as a user would.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { USER_SIR_WORLD } from '../support/user-sir-world.ts';

const dir = tempDir('user-batch');

async function ok(args: string[]): Promise<string> {
  const r = await cli(args, { cwd: dir, timeoutMs: 300_000 });
  if (r.code !== 0) throw new Error(`grapevine ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

interface Outcome {
  outcome: string;
  constant: number | null;
  effect: { mean: number; paired?: { lo: number; hi: number }; differences?: number[] };
}

let diff: { paired: boolean; pairs: number; seeds: number[]; world: { id: string }; outcomes: Outcome[] };

beforeAll(async () => {
  writeFileSync(join(dir, 'sir.ts'), USER_SIR_WORLD);
  await ok(['run', './sir.ts', '--seed', '4', '--snapshot-every', '5', '--out', 'parent.ndjson', '--quiet']);
  // faster recovery from tick 5 on, against the same futures without it
  await ok([
    'fork',
    'parent.ndjson',
    '--world',
    './sir.ts',
    '--at',
    '5',
    '--set',
    'gamma=0.2',
    '--replicates',
    '8',
    '--out',
    'batch',
    '--quiet',
  ]);
  diff = JSON.parse(await ok(['diff', 'batch', '--json']));
}, 300_000);

describe('a fork batch of a world file outside the checkout', () => {
  it('is paired by the children’s future seeds and analysed as a paired experiment', () => {
    expect(diff).toMatchObject({ paired: true, pairs: 8, world: { id: 'user-sir' } });
    expect(diff.seeds).toEqual([4001, 4002, 4003, 4004, 4005, 4006, 4007, 4008]);
    const names = diff.outcomes.map((o) => o.outcome);
    expect(names).toEqual(['ticks', 'metric.infected', 'metric.reach', 'metric.recovered']);
    // every run ends when no one is infected
    expect(diff.outcomes.find((o) => o.outcome === 'metric.infected')?.constant).toBe(0);
    // recovering twice as fast leaves fewer ever infected, in every reading of the interval
    const recovered = diff.outcomes.find((o) => o.outcome === 'metric.recovered') as Outcome;
    expect(recovered.effect.differences).toHaveLength(8);
    expect(recovered.effect.paired!.hi).toBeLessThan(0);
  });

  it('gets a batch report describing the folder, with the same numbers', async () => {
    const page = JSON.parse(await ok(['report', 'batch', '--json']));
    const { figures, ...analysis } = page;
    expect(analysis).toEqual(diff);
    expect(figures.map((f: { id: string }) => f.id)).toContain('batch-effect');
    const html = readFileSync(join(dir, 'batch', 'report.html'), 'utf8');
    expect(html).toContain('grapevine fork batch: user-sir, 8 pairs forked after tick 5');
    expect(html).toContain('seeds 4001–4008');
    expect(existsSync(join(dir, 'batch', 'report.html'))).toBe(true);
  });
});
