// Issue 15 item 5 at a small size: a complete network's snapshot of pending deliveries is
// split into bounded snapshot-part lines (the writer's bound lowered by GRAPEVINE_LOG_LINE_BOUND),
// and replay, resume, fork and inspect read such a log.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

// The commands run in this process (the CLI's `main`, nothing left open, the variable set for
// the command only): they test what is written and read, and a process start costs ~0.3 CPU-s.
const dir = tempDir();
const log = join(dir, 'complete.ndjson');
const BOUND = 16384;
const env = { GRAPEVINE_LOG_LINE_BOUND: String(BOUND) };
let digest = '';

beforeAll(async () => {
  const r = await cliChecked(
    [
      ...['run', 'rumor', '--set', 'n=2000', '--set', 'network=complete'],
      ...['--set', 'model=independent-cascade', '--set', 'p=0.001'],
      ...['--ticks', '3', '--snapshot-every', '2', '--out', log, '--json'],
    ],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  digest = JSON.parse(r.stdout).digest;
}, 120_000);

const lines = () => readFileSync(log, 'utf8').trimEnd().split('\n');
const digestOf = (stdout: string) => /digest ([0-9a-f]{64})/.exec(stdout)?.[1];

describe('snapshots over the line bound are split (issue 15 item 5)', () => {
  it('every line stays near the bound, and the snapshots come in parts', () => {
    const all = lines();
    const types = all.map((l) => JSON.parse(l).type as string);
    expect(types.filter((t) => t === 'snapshot')).toHaveLength(2);
    expect(types.filter((t) => t === 'snapshot-part').length).toBeGreaterThan(100);
    // a part holds BOUND/4 code units of data plus its keys; the skeleton stays under the bound
    for (const l of all.slice(1)) expect(l.length).toBeLessThan(BOUND);
  });

  it('replay --verify reproduces it without the variable (the split is read from the log)', async () => {
    const r = await cliChecked(['replay', log, '--verify']);
    expect(r.code, r.stderr).toBe(0);
    expect(digestOf(r.stdout)).toBe(digest);
  });

  it('resume of a log cut inside a snapshot part group reaches the same bytes', async () => {
    const all = lines();
    const firstPart = all.findIndex((l) => l.includes('"type":"snapshot-part"'));
    const cut = join(dir, 'cut.ndjson');
    writeFileSync(cut, `${all.slice(0, firstPart + 5).join('\n')}\n${all[firstPart + 5].slice(0, 100)}`);
    const r = await cliChecked(['resume', cut], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(digestOf(r.stdout)).toBe(digest);
    const strip = (text: string) => text.replace(/"wall":\{[^}]*\}/, '');
    expect(strip(readFileSync(cut, 'utf8'))).toBe(strip(readFileSync(log, 'utf8')));
  });

  it('fork from the split snapshot and inspect from it', async () => {
    const child = join(dir, 'child.ndjson');
    const f = await cliChecked(['fork', log, '--at', '2', '--out', child], { env });
    expect(f.code, f.stderr).toBe(0);
    expect(digestOf(f.stdout)).toBe(digest);
    const i = await cliChecked(['inspect', log, '--agent', '3', '--at', '3']);
    expect(i.code, i.stderr).toBe(0);
    expect(i.stdout).toMatch(/after tick 2 \(the snapshot inspect starts from\)/);
    expect(i.stdout).toMatch(/agent 3 at the end of tick 3/);
  });
});
