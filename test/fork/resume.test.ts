// `grapevine resume`: a run killed with SIGKILL at a random tick, or stopped by its LLM
// budget, continues from its last complete tick in the same file, and ends exactly as an
// uninterrupted run; a finished run is not resumed. Only the killed run is a process of its
// own (it is what SIGKILL hits); the other commands, the resumes included, run in this process
// (cliChecked: what a command decides and writes), against an LLM server that is a process of its own.
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanLog } from '../../src/replay/index.ts';
import { cli } from '../support/cli.ts';
import { cliChecked, cliCheckedJson } from '../support/cli-in-process.ts';
import { type ServeLlmChild, startServeLlm } from '../support/serve-llm-child.ts';
import { tempDir } from '../support/temp-dir.ts';
import { forgeTick, headerWithoutWall, lines, verifyInProcess } from './helpers.ts';

const dir = tempDir('resume');

/** Counts the complete `tick` lines of a growing log, reading only what was appended since the last call. */
class TickCounter {
  private offset = 0;
  private rest = '';
  ticks = 0;
  constructor(private readonly path: string) {}
  poll(): number {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return this.ticks;
    }
    try {
      const buf = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, this.offset);
        if (n === 0) break;
        this.offset += n;
        const text = this.rest + buf.toString('latin1', 0, n);
        const cut = text.lastIndexOf('\n');
        const complete = cut < 0 ? '' : text.slice(0, cut);
        this.rest = cut < 0 ? text : text.slice(cut + 1);
        this.ticks += complete.split('"type":"tick"').length - 1;
      }
    } finally {
      closeSync(fd);
    }
    return this.ticks;
  }
}

const BIG = ['rumor', '--set', 'n=100000', '--snapshot-every', '20'];
/**
 * Continuous time, activation by state: the wake schedule (heap, rates, draw counts) is in
 * each snapshot, and a resume restores it (per-edge SIS: agents go in and out of the schedule).
 */
const SIS = [
  'epidemic',
  ...['--set', 'model=sis', '--set', 'transmission=per-edge', '--set', 'network=erdos-renyi'],
  ...['--set', 'n=15000', '--set', 'initial=5000', '--set', 'tau=0.25', '--set', 'gamma=1'],
  ...['--ticks', '30', '--snapshot-every', '5'],
];

/**
 * The voter by discordance: rates that read neighbours, and counts (opinions, disagreeing
 * neighbours) that are not in snapshots, counted again by the resumed run.
 */
const VOTER = [
  'opinion',
  ...['--set', 'model=voter', '--set', 'n=20000', '--ticks', '40', '--snapshot-every', '5'],
];

describe('a SIGKILLed run', () => {
  it.each([
    ['rumour, 100,000 agents, simultaneous', BIG],
    ['per-edge SIS in continuous time (async by state)', SIS],
    ['voter by discordance (rates that read neighbours)', VOTER],
  ])(
    '%s: is resumed from its last complete tick and ends with the digest and bytes of an uninterrupted run',
    async (name, args) => {
      const reference = join(dir, `uninterrupted-${name.length}.ndjson`);
      let killedAt = -1;
      let out = '';
      // the run is fast (about 80 ticks at 100,000 agents): aim at a random tick, and retry if
      // the process finished before the kill landed
      for (let attempt = 1; attempt <= 4 && killedAt < 0; attempt++) {
        out = join(dir, `killed-${name.length}-${attempt}.ndjson`);
        const target = 2 + Math.floor(Math.random() * (40 / attempt));
        let child: ChildProcess | undefined;
        // started at once (not queued for a slot): the kill below is timed against its ticks
        const exited = cli(['run', ...args, '--out', out, '--quiet'], {
          longLived: true,
          onSpawn: (c) => {
            child = c;
          },
        });
        let done = false;
        void exited.then(() => {
          done = true;
        });
        const counter = new TickCounter(out);
        // tick 0 is the first tick line
        while (!done && counter.poll() < target + 1) await new Promise((r) => setTimeout(r, 2));
        child?.kill('SIGKILL');
        await exited;
        const summary = await scanLog(out);
        if (!summary.complete) killedAt = summary.lastTick;
      }
      expect(killedAt, 'the run was killed before its end').toBeGreaterThanOrEqual(0);
      const r = await cliCheckedJson(['resume', out]);
      // after the kill: an in-process run would hold the event loop that times the kill
      const ref = await cliCheckedJson(['run', ...args, '--out', reference]);
      expect({ killedAt, digest: r.digest, ticks: r.ticks }).toEqual({
        killedAt,
        digest: ref.digest,
        ticks: ref.ticks,
      });
      expect(r.resumedAt).toBeLessThanOrEqual(killedAt);
      expect(headerWithoutWall(out)).toBe(headerWithoutWall(reference));
      const a = lines(out);
      const b = lines(reference);
      expect(a.length).toBe(b.length);
      for (let k = 1; k < a.length; k++) if (a[k] !== b[k]) expect({ seq: k, killedAt }).toBe('identical');
    },
    120_000,
  );

  it('resuming a finished run is an error (exit 2) and leaves the log alone', async () => {
    const done = join(dir, 'finished.ndjson');
    await cliCheckedJson(['run', 'rumor', '--set', 'n=500', '--snapshot-every', '5', '--out', done]);
    const before = readFileSync(done, 'utf8');
    const r = await cliChecked(['resume', done]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('finished run');
    expect(readFileSync(done, 'utf8')).toBe(before);
  });
});

describe('a run stopped by its LLM budget', () => {
  let server: ServeLlmChild;
  let reference: Record<string, Record<string, unknown>>;
  let stoppedCopy: { path: string; seq: number } | undefined;

  beforeAll(async () => {
    server = await startServeLlm();
    const base = ['run', 'town-square', '--seed', '5', '--llm-base-url', server.url];
    const plain = await cliCheckedJson([...base, '--out', join(dir, 'town-full.ndjson')]);
    const snap = await cliCheckedJson([
      ...base,
      '--snapshot-every',
      '2',
      '--out',
      join(dir, 'town-full-snap.ndjson'),
    ]);
    reference = { plain, snap };
  });

  afterAll(async () => {
    await server?.close();
  });

  // `resume` takes no budget flags: the resumed run goes on to the world's end, and the
  // budget (not in the header) leaves no trace, so the result is the unbudgeted run.
  it.each([
    ['plain', [] as string[]],
    ['snap', ['--snapshot-every', '2']],
  ])('%s: resume continues it to the end, equal to a run without a budget', async (name, extra) => {
    const out = join(dir, `budget-${name}.ndjson`);
    const stopped = await cliCheckedJson([
      'run',
      'town-square',
      '--seed',
      '5',
      '--llm-base-url',
      server.url,
      '--budget-tokens',
      '8000',
      ...extra,
      '--out',
      out,
    ]);
    expect(stopped.reason).toBe('budget-exhausted');
    expect(stopped.ticks).toBeLessThan(10);
    // an odd stop tick: with snapshots every 2 the resume restores one and reruns a recorded tail
    expect((stopped.ticks as number) % 2).toBe(1);
    if (name === 'plain') stoppedCopy = forgeTick(out, 1, join(dir, 'budget-forged.ndjson'));
    const r = await cliCheckedJson(['resume', out, '--llm-base-url', server.url]);
    expect(r).toMatchObject({ reason: 'max-ticks', ticks: 10, resumedAt: stopped.ticks });
    expect(r.digest).toBe(reference[name].digest);
    expect(await verifyInProcess(out)).toBe(r.digest);
  });

  it('a resume that fails leaves the stopped log as it was (its final snapshot and end included)', async () => {
    // made by the test above: the budget-stopped log with tick 1 forged (chain recomputed),
    // so that the rerun of the recorded ticks fails
    expect(stoppedCopy).toBeDefined();
    const before = readFileSync(stoppedCopy!.path, 'utf8');
    const failed = await cliChecked(['resume', stoppedCopy!.path, '--llm-base-url', server.url]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`seq ${stoppedCopy!.seq} (tick 1)`);
    const after = readFileSync(stoppedCopy!.path, 'utf8');
    expect(after.trimEnd().split('\n').at(-1)).toContain('"type":"end"');
    expect(after === before, 'a failed resume must not change the log').toBe(true);
  });
});
