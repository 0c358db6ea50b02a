import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sensitivityCommand } from '../../src/cli/commands/sensitivity.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('sensitivity');

function capture() {
  let text = '';
  const out = {
    out: (s: string) => {
      text += s;
    },
    err: () => {},
  };
  return { out, text: () => text };
}

describe('grapevine sensitivity', () => {
  it('decomposes a runs file: factor A explains 8/10.08 of the variance', async () => {
    const rows = ['A,B,seed,y'];
    for (const a of [-1, 1])
      for (const b of [-0.5, 0.5]) for (const e of [-0.1, 0.1]) rows.push(`${a},${b},${e},${a + b + e}`);
    const path = join(dir, 'runs.csv');
    writeFileSync(path, rows.join('\n'));
    const c = capture();
    expect(await sensitivityCommand(path, { outcome: 'y', json: true }, c.out)).toBe(0);
    const [r] = JSON.parse(c.text());
    expect(r.metric).toBe('y');
    expect(r.factors.map((f: { factor: string }) => f.factor)).toEqual(['A', 'B']);
    expect(r.factors[0].share.estimate).toBeCloseTo(8 / 10.08, 12);
    expect(r.seed.estimate).toBeCloseTo(0.08 / 10.08, 12);
  });

  it('names file:line of a run without an outcome number', async () => {
    const path = join(dir, 'bad.csv');
    writeFileSync(path, 'A,y\nx,1\ny,lots\n');
    await expect(sensitivityCommand(path, { outcome: 'y' }, capture().out)).rejects.toThrow(
      `${path}:3: y must be a number`,
    );
  });

  it('runs a rule world over a factorial design (subprocess)', async () => {
    const r = await cli([
      'sensitivity',
      'rumor',
      '--factor',
      'beta=0.05,0.9',
      '--factor',
      'n=40,60',
      '--replicates',
      '2',
      '--ticks',
      '5',
      '--metric',
      'rumor.fractionAware',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [d] = JSON.parse(r.stdout);
    expect(d.n).toBe(8);
    expect(d.factors.map((f: { factor: string }) => f.factor)).toEqual(['beta', 'n']);
    const beta = d.factors[0].levels;
    expect(beta.find((l: { level: string }) => l.level === '0.9').mean).toBeGreaterThan(
      beta.find((l: { level: string }) => l.level === '0.05').mean,
    );
  });
});
