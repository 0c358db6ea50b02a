// Sizes and depths from the command line and from files are bounded before work starts
// (issue 30, items 9 and 17): each case was a native crash, minutes of allocation or an
// "unexpected error" with exit 1; each is now one line and a hint, exit 2, in seconds.
import { closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('bounds');
const log = join(dir, 'parent.ndjson');

beforeAll(async () => {
  const r = await cli(['run', 'rumor', '--set', 'n=50', '--ticks', '5', '--out', log, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

/** Exit 2, a message line and a hint line, no stack, within `ms`. */
async function refused(args: string[], message: RegExp, ms = 20_000): Promise<void> {
  const started = Date.now();
  const r = await cli(args, { timeoutMs: 120_000 });
  expect(r.hung).toBe(false);
  expect(Date.now() - started).toBeLessThan(ms);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(2);
  expect(lines[0]).toMatch(message);
  expect(lines[1]).toMatch(/^hint: /);
  expect(hasStack(r.stderr)).toBe(false);
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('bounded before work starts', { timeout: 180_000 }, () => {
  it('sweep --replicates 2^53-1', async () => {
    await refused(
      ['sweep', 'rumor', '--replicates', '9007199254740991', '--out', join(dir, 'sweep-huge')],
      /1 points × 9007199254740991 replicates makes 9007199254740991 runs, more than the 10000000 one batch may hold/,
    );
  });

  it('fork --replicates 2^53-1', async () => {
    await refused(
      ['fork', log, '--at', '2', '--replicates', '9007199254740991', '--out', join(dir, 'fork-huge')],
      /--replicates 9007199254740991 at 1 tick makes \d+ fork children, more than/,
    );
  });

  it('compare with a human count of 2e9 and with --replicates 2^53-1', async () => {
    const answers = join(dir, 'answers.csv');
    writeFileSync(answers, 'agent,item,kind,answer\n1,q1,choice,a\n2,q1,choice,b\n');
    const human = join(dir, 'human.csv');
    writeFileSync(human, 'item,option,count,source\nq1,a,1000000000,x\nq1,b,1000000000,x\n');
    await refused(
      ['compare', answers, '--human', human],
      /n = 2000000000 makes 2000000000 respondents, more than/,
    );
    const small = join(dir, 'human-small.csv');
    writeFileSync(small, 'item,option,count,source\nq1,a,10,x\nq1,b,10,x\n');
    await refused(
      ['compare', answers, '--human', small, '--replicates', '9007199254740991'],
      /--replicates 9007199254740991 makes 9007199254740991 bootstrap resamples/,
    );
  });

  it('a human CSV with a byte-order mark reads as one without', async () => {
    const answers = join(dir, 'answers-bom.csv');
    writeFileSync(answers, 'agent,item,kind,answer\n1,q1,choice,a\n2,q1,choice,b\n');
    const human = join(dir, 'human-bom.csv');
    writeFileSync(human, '\ufeffitem,option,count,source\nq1,a,10,x\nq1,b,10,x\n');
    const r = await cli(['compare', answers, '--human', human, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/expected string/);
  });

  it('an edge list of 4.7 GB (a sparse file: no disk used) is refused before it is read', async () => {
    const edges = join(dir, 'huge-edges.csv');
    const fd = openSync(edges, 'w');
    ftruncateSync(fd, 4.7e9);
    closeSync(fd);
    await refused(
      [
        'run',
        'rumor',
        '--set',
        'network=csv',
        '--set',
        `networkFile=${edges}`,
        '--out',
        join(dir, 'huge.ndjson'),
      ],
      /cannot read edge list .*huge-edges\.csv: 4700000000 bytes, more than the \d+ an input file may have/,
      5_000,
    );
  });

  it('--config nested 100,000 deep', async () => {
    const config = join(dir, 'deep.json');
    writeFileSync(config, deep(100_000));
    await refused(
      ['run', 'rumor', '--config', config, '--out', join(dir, 'deep.ndjson')],
      /is nested deeper than 64 levels/,
    );
  });

  it('an intervention nested 100,000 deep, and 200,000 interventions', async () => {
    const deepFile = join(dir, 'deep-iv.json');
    writeFileSync(deepFile, `{"type":"params","set":{"n":${deep(100_000)}}}`);
    await refused(
      ['fork', log, '--at', '2', '--intervene', deepFile, '--out', join(dir, 'deep-iv.ndjson')],
      /nested deeper than 64 levels/,
    );
    const many = join(dir, 'many.json');
    writeFileSync(
      many,
      JSON.stringify(Array.from({ length: 200_000 }, () => ({ type: 'seed', agents: [0], item: 'rumor' }))),
    );
    const r = await cli(['fork', log, '--at', '2', '--intervene', many, '--out', join(dir, 'many.ndjson')]);
    expect(r.stderr).not.toMatch(/unexpected error|Maximum call stack/);
    expect(hasStack(r.stderr)).toBe(false);
  });

  it('a sweep file with __proto__ in its grid, and one that is not YAML', async () => {
    const proto = join(dir, 'proto.yaml');
    writeFileSync(proto, 'world: rumor\ngrid:\n  __proto__: [1, 2]\n  p: [0.1]\n');
    await refused(['sweep', proto, '--out', join(dir, 'proto-sweep')], /the key "__proto__" is not allowed/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'world: rumor\ngrid: [unclosed\n');
    await refused(['sweep', bad, '--out', join(dir, 'bad-sweep')], /is not valid YAML\/JSON/);
  });

  it('--replicates and --agent errors carry a hint', async () => {
    await refused(
      ['sweep', 'rumor', '--replicates', 'x', '--out', join(dir, 'x')],
      /--replicates must be a positive integer/,
    );
    await refused(['inspect', log, '--agent', '99'], /--agent 99 is not an agent/);
  });
});
