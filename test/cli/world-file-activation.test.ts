// A continuous-time world file written outside the checkout (docs/examples/gossip.ts, the
// activation example of docs/API.md and docs/TIME.md): its passive states never wake, and an
// agent made active by an encounter, by mail, by an intervention or by a fork's edit is woken.
// The compiled CLI runs, forks and verifies it in a temporary folder.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const EXAMPLE = resolve('docs/examples/gossip.ts');
let dir: string;

interface Summary {
  digest: string;
  ticks: number;
  steps: number;
  reason: string;
  metrics: { unaware: number; spreading: number; bored: number; idle: number };
}

async function run(...args: string[]): Promise<Summary> {
  const r = await cli([...args, '--json'], { cwd: dir });
  if (r.code !== 0) throw new Error(`grapevine ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary;
}

// The gossip dies out early at these rates, leaving most agents unaware: the forks below
// restart it with a tip or an edit after the parent's last tick.
const QUIET = ['--set', 'talk=0.3', '--set', 'forget=0.6', '--seed', '4'];
let parent: Summary;
let parentLog: string;
let busy: Summary;
let busyLog: string;

beforeAll(async () => {
  dir = tempDir('user-time');
  copyFileSync(EXAMPLE, join(dir, 'gossip.ts'));
  parentLog = join(dir, 'quiet.ndjson');
  parent = await run('run', './gossip.ts', ...QUIET, '--out', parentLog);
  busyLog = join(dir, 'busy.ndjson');
  busy = await run('run', './gossip.ts', '--seed', '3', '--snapshot-every', '5', '--out', busyLog);
}, 180_000);

describe('a continuous-time world file outside the checkout', { timeout: 180_000 }, () => {
  it('never wakes a passive agent under async, and does under async-uniform', async () => {
    const byState = busy;
    const uniform = await run(
      'run',
      './gossip.ts',
      '--seed',
      '3',
      '--set',
      'turns=async-uniform',
      '--out',
      join(dir, 'u.ndjson'),
    );
    expect(byState.metrics.bored).toBeGreaterThan(100);
    expect(byState.metrics.idle).toBe(0);
    expect(uniform.metrics.idle).toBeGreaterThan(byState.steps);
    // every step of an agent woken by state did something: a telling or forgetting
    expect(byState.steps).toBeLessThan(uniform.steps);
    const replay = await cli(['replay', busyLog, '--verify', '--json', '--world', './gossip.ts'], {
      cwd: dir,
    });
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest: byState.digest });
  });

  it('a fork without intervention reproduces the parent from a snapshot and between snapshots', async () => {
    expect(busy.ticks).toBeGreaterThan(12);
    for (const at of [5, 7]) {
      const child = await run(
        'fork',
        busyLog,
        '--at',
        String(at),
        '--world',
        './gossip.ts',
        '--out',
        join(dir, `same-${at}.ndjson`),
      );
      expect({ at, digest: child.digest, ticks: child.ticks }).toEqual({
        at,
        digest: busy.digest,
        ticks: busy.ticks,
      });
    }
  });

  it('wakes a passive agent for its mail: a tip sent after the parent ended restarts the gossip', async () => {
    expect(parent.reason).toBe('over');
    expect(parent.metrics.unaware).toBeGreaterThan(1000);
    const unaware = firstUnaware();
    const file = join(dir, 'tip.json');
    writeFileSync(file, JSON.stringify({ type: 'message', to: { agent: unaware }, kind: 'tip' }));
    const out = join(dir, 'tipped.ndjson');
    const child = await run(
      'fork',
      parentLog,
      '--at',
      String(parent.ticks),
      '--intervene',
      file,
      '--world',
      './gossip.ts',
      '--out',
      out,
    );
    expect(child.reason).toBe('over');
    expect(child.ticks).toBeGreaterThan(parent.ticks);
    expect(child.metrics.unaware).toBeLessThan(parent.metrics.unaware);
    expect(child.metrics.idle).toBe(0);
    const verify = await cli(['replay', out, '--verify', '--json', '--world', './gossip.ts'], { cwd: dir });
    expect(verify.code).toBe(0);
  });

  it('wakes an agent a fork edits into an active state', async () => {
    const file = join(dir, 'edit.json');
    writeFileSync(file, JSON.stringify({ type: 'agent', agent: firstUnaware(), events: ['HEAR'] }));
    const child = await run(
      'fork',
      parentLog,
      '--at',
      String(parent.ticks),
      '--intervene',
      file,
      '--world',
      './gossip.ts',
      '--out',
      join(dir, 'edited.ndjson'),
    );
    expect(child.ticks).toBeGreaterThan(parent.ticks);
    expect(child.metrics.bored).toBeGreaterThan(parent.metrics.bored);
    expect(child.metrics.idle).toBe(0);
  });
});

/** An agent still unaware at the parent's end, read from its final snapshot (region `gossip`: 0 = unaware). */
function firstUnaware(): number {
  const lines = readFileSync(parentLog, 'utf8').trim().split('\n');
  const snapshot = JSON.parse(lines[lines.length - 2]) as {
    type: string;
    state: { executor: { regions: string[] } };
  };
  expect(snapshot.type).toBe('snapshot');
  // regions[0] is the lifecycle region, regions[1] the world's `gossip`
  const states = Buffer.from(snapshot.state.executor.regions[1], 'base64');
  const i = states.indexOf(0);
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}
