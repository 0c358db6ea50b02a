// A world file written by a user in a folder outside the checkout (docs/examples/
// bounded-confidence.ts, the example of docs/API.md): it imports 'grapevine', and the
// compiled CLI lists, checks, runs and replays it there.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { SUBPATH_WORLD, UNKNOWN_SUBPATH_WORLD, WILSON_3_OF_10 } from './subpath-world-fixture.ts';

const EXAMPLE = resolve('docs/examples/bounded-confidence.ts');
let dir: string;

beforeAll(() => {
  dir = tempDir('user');
  copyFileSync(EXAMPLE, join(dir, 'bounded-confidence.ts'));
});

// Every case is independent (its own files in the folder): they run side by side, at most
// two children per test worker (support/cli.ts); a type check costs seconds of CPU.
describe.concurrent('a world file outside the checkout', { timeout: 180_000 }, () => {
  // first, alone: the cases after it find its check passed (the same text) instead of racing it
  // to a second cold one
  it.sequential('passes grapevine check', async () => {
    const r = await cli(['check', './bounded-confidence.ts'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('defines bounded-confidence@1.0.0');
  });

  it('is listed with its parameters', async () => {
    const r = await cli(['worlds', './bounded-confidence.ts', '--json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const [w] = JSON.parse(r.stdout);
    expect(w).toMatchObject({ id: 'bounded-confidence', version: '1.0.0' });
    expect(w.params.map((p: { name: string }) => p.name)).toEqual(['n', 'k', 'epsilon']);
  });

  it('runs, and its log verifies', async () => {
    const out = join(dir, 'bc.ndjson');
    const run = await cli(['run', './bounded-confidence.ts', '--seed', '3', '--out', out, '--json'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ world: 'bounded-confidence', ticks: 30, steps: 3000 });
    // Opinions only ever move towards each other: the spread cannot exceed the initial one.
    expect(summary.metrics.spread).toBeGreaterThan(0);
    expect(summary.metrics.spread).toBeLessThan(1);
    const replay = await cli(['replay', out, '--verify', '--json', '--world', './bounded-confidence.ts'], {
      cwd: dir,
    });
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest: summary.digest });
  });
});

const BROKEN = `import { defineAgentMachine, defineWorld, z } from 'grapevine';
const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 's', states: { s: {} } } } });
export const world = defineWorld({
  id: 'no policy',
  version: '1.0.0',
  description: 'a world without a policy',
  params: z.object({ n: z.number() }),
  create: () => ({ size: 3, agents: agent, turnPolicy: 'simultaneous' }),
});
`;

describe.concurrent('a broken world file', { timeout: 180_000 }, () => {
  it('grapevine check names each problem (exit 2)', async () => {
    writeFileSync(join(dir, 'broken.ts'), BROKEN);
    const r = await cli(['check', './broken.ts', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.types.join('\n')).toMatch(/broken\.ts:8:\d+: error TS\d+: .*'policy' is missing/);
    expect(report.problems).toEqual([
      '`id` must be a non-empty string without spaces',
      'parameter "n" has no default (Invalid input: expected number, received undefined)',
    ]);
  });

  it('run of a world without a policy fails with one line naming it (exit 2)', async () => {
    const fixed = BROKEN.replace("'no policy'", "'no-policy'").replace('z.number()', 'z.number().default(3)');
    writeFileSync(join(dir, 'no-policy.ts'), fixed);
    // the type check stops it first, naming the missing field
    const checked = await cli(['run', './no-policy.ts', '--quiet'], { cwd: dir });
    expect(checked.code).toBe(2);
    expect(checked.stderr.split('\n')[0]).toMatch(/does not type-check: .*Property 'policy' is missing/);
    // unchecked, the run's own check of the instance names it
    const r = await cli(['run', './no-policy.ts', '--quiet', '--no-check'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'grapevine: world "no-policy": `policy` must be a function (ctx) => decision: each agent step calls it',
    );
    expect(r.stderr).not.toMatch(/unexpected error|at .*\.js:\d+/);
  });
});

// The bundled engine keeps only the zod members its own code names; a world file gets the
// whole of zod from `grapevine` (scripts/bundle-cli.mjs). `z.email` is one the engine never uses.
const MAIL = `import { defineAgentMachine, defineWorld, z } from 'grapevine';
const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 's', states: { s: {} } } } });
export const world = defineWorld({
  id: 'mail',
  version: '1.0.0',
  description: 'a world whose parameter is an e-mail address',
  params: z.object({ contact: z.email().default('ada@example.org') }),
  create: () => ({ size: 3, agents: agent, turnPolicy: 'simultaneous', policy: () => {} }),
});
`;

describe.concurrent('a world file using zod members the engine does not', { timeout: 180_000 }, () => {
  it('runs with its default, and a bad value fails with the message of zod (exit 2)', async () => {
    writeFileSync(join(dir, 'mail.js'), MAIL);
    const ok = await cli(['run', './mail.js', '--ticks', '2', '--out', 'mail.ndjson', '--json'], {
      cwd: dir,
    });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(ok.stdout)).toMatchObject({ world: 'mail', ticks: 2 });
    const bad = await cli(['run', './mail.js', '--set', 'contact=nobody', '--out', 'bad.ndjson'], {
      cwd: dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'grapevine: parameter "contact" of world "mail": Invalid email address (got "nobody")',
    );
  });
});

describe.concurrent('a world file importing subpath entries (grapevine/analysis, grapevine/replay)', {
  timeout: 180_000,
}, () => {
  it('passes grapevine check: the subpaths have their types', async () => {
    writeFileSync(join(dir, 'subpaths-check.ts'), SUBPATH_WORLD);
    const r = await cli(['check', './subpaths-check.ts'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });

  it('a subpath the package does not export fails in one line naming the entries there are (exit 2)', async () => {
    writeFileSync(join(dir, 'internals.ts'), UNKNOWN_SUBPATH_WORLD);
    const checked = await cli(['run', './internals.ts', '--quiet'], { cwd: dir });
    expect(checked.code).toBe(2);
    expect(checked.stderr.split('\n')[0]).toMatch(/does not type-check: .*'grapevine\/internals'/);
    // unchecked, the loader names the entries there are
    const r = await cli(['run', './internals.ts', '--quiet', '--no-check'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^grapevine: cannot load world file .*internals\.ts: 'grapevine\/internals' is not an entry of grapevine \(its entries: grapevine, grapevine\/analysis, grapevine\/cli, grapevine\/llm, grapevine\/replay, grapevine\/sweep\)$/,
    );
  });

  // after the check: it finds the check passed (the same text), instead of racing it to
  // a second cold one
  it.sequential('runs on the engine that runs it, and its log verifies', async () => {
    writeFileSync(join(dir, 'subpaths.ts'), SUBPATH_WORLD);
    const out = join(dir, 'subpaths.ndjson');
    const run = await cli(['run', './subpaths.ts', '--ticks', '2', '--out', out, '--json'], { cwd: dir });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { summary, digest } = JSON.parse(run.stdout);
    expect(summary.lo).toBeCloseTo(WILSON_3_OF_10.lo, 4);
    expect(summary.hi).toBeCloseTo(WILSON_3_OF_10.hi, 4);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]);
    expect(summary.format).toBe(header.format);
    // an error class of grapevine/replay extends the GrapevineError of grapevine: one engine
    expect(summary.shared).toBe(true);
    const replay = await cli(['replay', out, '--verify', '--json', '--world', './subpaths.ts'], { cwd: dir });
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest });
  });
});
