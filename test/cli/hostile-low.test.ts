// Smaller hostile inputs, on the built CLI in real processes: a `params` intervention in a
// file follows the rules of `fork --set` (a parameter fixed when the world was built is
// refused, not recorded and ignored); crafted strings from a log or the command line reach
// the terminal escaped, on one line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('hostile-low');
const parent = join(dir, 'parent.ndjson');

beforeAll(async () => {
  const r = await cli(['run', 'rumor', '--set', 'n=80', '--ticks', '10', '--seed', '4', '--out', parent]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('a params intervention follows the rules of fork --set', { timeout: 120_000 }, () => {
  it('setting n in an intervention file is refused as --set n=5 is, and nothing is written', async () => {
    const out = join(dir, 'n5.ndjson');
    const viaFile = await cli([
      'fork',
      parent,
      '--at',
      '5',
      '--intervene',
      file('n5.json', '{"type":"params","set":{"n":5}}'),
      '--out',
      out,
    ]);
    const viaSet = await cli(['fork', parent, '--at', '5', '--set', 'n=5', '--out', out]);
    for (const r of [viaFile, viaSet]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^grapevine: a fork cannot change n: the world was built with n=80\nhint: /);
    }
    expect(lines(parent).length).toBeGreaterThan(0);
    const listed = await cli(['replay', out, '--verify']);
    expect(listed.code).toBe(2); // no child was written
  });

  it('a parameter read while the run goes on is still applied from a file, and recorded', async () => {
    const out = join(dir, 'p.ndjson');
    const r = await cli([
      'fork',
      parent,
      '--at',
      '5',
      '--intervene',
      file('p.yaml', 'type: params\nset:\n  n: 80\n  p: 0.5\n'),
      '--out',
      out,
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(out).some((l) => l.includes('"p":0.5'))).toBe(true);
  });
});

const CRAFTED = '\u001b]0;pwned\u0007\u001b[31mFAKE: verified OK\nsecond line\u202e';

function expectOneSafeLine(stderr: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
  expect(stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  expect(stderr.trimEnd().split('\n')).toHaveLength(2); // the error and its hint
  expect(stderr.split('\n')[1]).toMatch(/^hint: /);
  expect(stderr).toContain('\\x1b]0;pwned\\x07\\x1b[31mFAKE: verified OK\\nsecond line\\u202e');
  expect(hasStack(stderr)).toBe(false);
}

describe('crafted strings reach the terminal escaped', { timeout: 120_000 }, () => {
  it('a path on the command line', async () => {
    const r = await cli(['replay', join(dir, CRAFTED), '--verify']);
    expect(r.code).toBe(2);
    expectOneSafeLine(r.stderr);
  });

  it('a path in a crafted log header (chain recomputed), through replay, inspect and fork', async () => {
    const raw = lines(parent);
    const header = JSON.parse(raw[0]);
    header.params = { ...header.params, network: 'csv', networkFile: `/tmp/${CRAFTED}` };
    const crafted = file('crafted.ndjson', reChain([JSON.stringify(header), ...raw.slice(1)]));
    for (const args of [
      ['replay', crafted, '--verify'],
      ['inspect', crafted, '--agent', '0'],
      ['fork', crafted, '--at', '3', '--out', join(dir, 'never.ndjson')],
    ]) {
      const r = await cli(args);
      expect(r.code, args[0]).toBe(2);
      expectOneSafeLine(r.stderr);
    }
  });
});
