// A researcher's own world, written outside the checkout (docs/examples/misinformation.ts and
// threshold-cascade.ts), as first-class as a built-in one: fast by default (the columnar
// executor, chosen and said), checked before it runs (types, undeclared parameters), and its
// failures named by file and line. Through the compiled CLI, as a user runs it.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTableFile } from '../../src/validity/table-file.ts';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('own-world');
const run = (args: string[]) => cli(args, { cwd: dir });

beforeAll(() => {
  for (const f of ['misinformation.ts', 'threshold-cascade.ts'])
    copyFileSync(resolve('docs/examples', f), join(dir, f));
});

function header(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8').split('\n')[0]);
}

describe.concurrent('the executor is chosen for the world', { timeout: 300_000 }, () => {
  it.each(['misinformation', 'threshold-cascade'])(
    '%s runs on the columnar executor by default, and says so',
    async (name) => {
      const out = join(dir, `${name}.ndjson`);
      const r = await run(['run', `./${name}.ts`, '--set', 'n=600', '--out', out, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary.executor.kind).toBe('columnar');
      expect(summary.executor.reason).toMatch(/compiles .* memory is numeric/);
      expect(header(out).executor).toBe('columnar');
      const check = await run(['check', `./${name}.ts`]);
      expect(check.stdout).toMatch(/^executor columnar: /m);
      const replay = await run(['replay', out, '--verify', '--json', '--world', `./${name}.ts`]);
      expect(replay.code, replay.stderr).toBe(0);
      expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest: summary.digest });
    },
  );

  it('a world whose agents keep JSON in memory runs on XState, and says why', async () => {
    const json = readFileSync(join(dir, 'misinformation.ts'), 'utf8')
      .replace("id: 'misinformation'", "id: 'misinformation-notes'")
      .replace(
        "memory: { checker: { initial: 0, type: 'u8' }, since: { initial: -1, type: 'i32' } },",
        "memory: { checker: { initial: 0, type: 'u8' }, since: { initial: -1, type: 'i32' } },\n  jsonMemory: ['notes'],",
      )
      .replace("ctx.emit('START');", "ctx.emit('START');\n    ctx.set('notes', ['told at', ctx.tick]);");
    writeFileSync(join(dir, 'notes.ts'), json);
    // the executor's choice, not the type check, is the case: the file is type-correct
    const r = await run([
      'run',
      './notes.ts',
      '--set',
      'n=300',
      '--out',
      'notes.ndjson',
      '--json',
      '--no-check',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).executor).toEqual({
      kind: 'xstate',
      reason: 'its agents keep JSON in memory ("notes"), which columns cannot hold',
    });
    const forced = await run([
      'run',
      './notes.ts',
      '--set',
      'n=300',
      '--executor',
      'columnar',
      '--out',
      'bad.ndjson',
      '--no-check',
    ]);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toMatch(/executor "columnar" \(asked by --executor\) cannot run machine "reader"/);
  });

  it('forced XState and columnar runs write the same lines but for the snapshots, and the same final state', async () => {
    const lines = async (executor: string) => {
      const out = join(dir, `conform-${executor}.ndjson`);
      const r = await run([
        'run',
        './misinformation.ts',
        '--set',
        'n=400',
        '--executor',
        executor,
        '--out',
        out,
        '--log',
        'full',
        '--quiet',
      ]);
      expect(r.code, r.stderr).toBe(0);
      return readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((e) => e.type !== 'snapshot' && e.type !== 'header')
        .map(({ h: _h, seq: _s, wall: _w, ...rest }) => rest);
    };
    const [x, c] = await Promise.all([lines('xstate'), lines('columnar')]);
    expect(x.filter((e) => e.type === 'act').length).toBeGreaterThan(50);
    expect(x).toEqual(c);
  });
});

describe.concurrent('a world is checked before it runs', { timeout: 300_000 }, () => {
  it('params.gama in a .ts world: run stops with exit 2 naming gama and gamma (the type check)', async () => {
    writeFileSync(
      join(dir, 'gama.ts'),
      readFileSync(join(dir, 'misinformation.ts'), 'utf8').replace('ctx.params.gamma', 'ctx.params.gama'),
    );
    const r = await run(['run', './gama.ts', '--out', 'gama.ndjson']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /gama\.ts:\d+:\d+: error TS2551: Property 'gama' does not exist .* Did you mean 'gamma'\?/,
    );
    expect(hasStack(r.stderr)).toBe(false);
    // unchecked, the run refuses the read itself, at the line that makes it
    const unchecked = await run(['run', './gama.ts', '--out', 'gama.ndjson', '--no-check']);
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr).toMatch(
      /world "misinformation" read params\.gama, which it does not declare; did you mean gamma\? \(.*gama\.ts:\d+:\d+\)/,
    );
    // the read is in a step after tick 0: the log keeps its complete ticks (run's rule for any
    // error after the first tick), so whether a file is left is not what this case checks
  });

  it('params.gama in a .js world: run stops with exit 2 naming gama, gamma, file and line', async () => {
    const js = `import { defineAgentMachine, defineWorld, z } from 'grapevine';
const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 'on', states: { on: { tags: ['active'], on: { OFF: 'off' } }, off: {} } } } });
export const world = defineWorld({
  id: 'typo-js',
  version: '1.0.0',
  description: 'agents stop with chance gamma',
  params: z.object({ gamma: z.number().default(0.5) }),
  create: () => ({
    size: 5,
    agents: agent,
    turnPolicy: 'simultaneous',
    policy: (ctx) => {
      if (ctx.rng.chance(ctx.params.gama ?? 0)) ctx.emit('OFF');
    },
  }),
});
`;
    writeFileSync(join(dir, 'typo.js'), js);
    const r = await run(['run', './typo.js', '--out', 'typo.ndjson', '--no-check']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `grapevine: world "typo-js" read params.gama, which it does not declare; did you mean gamma? (${join(dir, 'typo.js')}:13:37)`,
    );
  });

  it("an exception in the world's code names the world file, line and column", async () => {
    writeFileSync(
      join(dir, 'throws.ts'),
      readFileSync(join(dir, 'misinformation.ts'), 'utf8').replace(
        'ctx.randomNeighbour()',
        '(ctx as unknown as { randomNeighbor(): number }).randomNeighbor()',
      ),
    );
    // type-correct (the missing method is reached through a cast): the failure is the run's, and
    // a type check would not change it
    const r = await run(['run', './throws.ts', '--set', 'n=100', '--out', 'throws.ndjson', '--no-check']);
    expect(r.code).toBe(1);
    const line =
      readFileSync(join(dir, 'throws.ts'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('randomNeighbor')) + 1;
    expect(r.stderr).toMatch(
      new RegExp(
        `the world's code failed at .*throws\\.ts:${line}:\\d+: TypeError: .*randomNeighbor is not a function`,
      ),
    );
    expect(r.stderr).not.toMatch(/bug in grapevine/);
    expect(hasStack(r.stderr)).toBe(false);
  });

  it('remembers a passed check by the content of the file, wherever it lies, and checks a changed file again', async () => {
    // a cache of its own: the other cases of this file write theirs meanwhile
    const own = tempDir('own-world-cache-copy');
    const runOwn = (args: string[]) => cli(args, { cwd: dir, env: { GRAPEVINE_CACHE_DIR: own } });
    writeFileSync(join(dir, 'cached.ts'), readFileSync(join(dir, 'threshold-cascade.ts'), 'utf8'));
    const first = await runOwn(['run', './cached.ts', '--set', 'n=200', '--out', 'c1.ndjson', '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const entries = () =>
      readdirSync(join(own, 'type-check')).map((f) => {
        const path = join(own, 'type-check', f);
        return { path, mtime: statSync(path).mtimeMs, text: readFileSync(path, 'utf8') };
      });
    const before = entries();
    expect(before).toHaveLength(1);
    expect(JSON.parse(before[0].text).files).toEqual([]); // no local imports
    // the same file under another name in another folder reuses the check: no entry rewritten
    const copy = join(dir, 'elsewhere');
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(copy, 'renamed.ts'), readFileSync(join(dir, 'cached.ts'), 'utf8'));
    const again = await runOwn([
      'run',
      './elsewhere/renamed.ts',
      '--set',
      'n=200',
      '--out',
      'c3.ndjson',
      '--quiet',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(entries()).toEqual(before);
    writeFileSync(
      join(dir, 'cached.ts'),
      readFileSync(join(dir, 'cached.ts'), 'utf8').replace(
        "ctx.num('threshold')",
        "ctx.num('threshold').length",
      ),
    );
    const changed = await runOwn(['run', './cached.ts', '--set', 'n=200', '--out', 'c2.ndjson', '--quiet']);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/cached\.ts:\d+:\d+: error TS2339: Property 'length' does not exist/);
  });
});

describe('a sweep of a user world, exported as one tidy table', { timeout: 300_000 }, () => {
  it('has one row per (run, tick), the parameters as columns, and forward-fills runs that stopped early', async () => {
    const sweep = join(dir, 'sweep');
    const s = await run([
      'sweep',
      './threshold-cascade.ts',
      '--grid',
      'phi=0.1,0.3',
      '--set',
      'n=300',
      '--replicates',
      '2',
      '--workers',
      '1',
      '--out',
      sweep,
      '--quiet',
    ]);
    expect(s.code, s.stderr).toBe(0);
    const e = await run(['export', sweep, '--out', 'runs.csv', '--quiet']);
    expect(e.code, e.stderr).toBe(0);
    const rows = readTableFile(join(dir, 'runs.csv'), 'the export').map(
      (r) => r.fields as Record<string, string>,
    );
    const runs = [...new Set(rows.map((r) => String(r.run)))].sort();
    expect(runs).toEqual(['p0-r0', 'p0-r1', 'p1-r0', 'p1-r1']);
    const ticks = [...new Set(rows.map((r) => Number(r.tick)))];
    expect(rows.length).toBe(runs.length * ticks.length);
    let stoppedEarly = 0;
    for (const id of runs) {
      const mine = rows.filter((r) => r.run === id);
      expect(new Set(mine.map((r) => r.phi)).size).toBe(1);
      expect(mine.map((r) => Number(r.tick))).toEqual([...ticks].sort((a, b) => a - b));
      const log = readFileSync(join(sweep, 'runs', `${id}.ndjson`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const recorded = log.filter((l) => l.type === 'tick');
      const last = recorded.at(-1);
      if (last.t < Math.max(...ticks)) stoppedEarly++;
      // after its own last tick a run keeps its final value
      for (const r of mine.filter((x) => Number(x.tick) >= last.t))
        expect(Number(r.adopters)).toBe(last.metrics.adopters);
      for (const t of recorded)
        expect(Number(mine.find((r) => Number(r.tick) === t.t)?.adopters)).toBe(t.metrics.adopters);
      expect(Number(mine[0].n)).toBe(300);
      expect(Number(mine[0].seed)).toBe(header(join(sweep, 'runs', `${id}.ndjson`)).seed);
    }
    // the cascades settle at different ticks: the forward-filled rows above were checked
    expect(stoppedEarly).toBeGreaterThan(0);
    const stdout = await run(['export', sweep, '--out', '-']);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toBe(readFileSync(join(dir, 'runs.csv'), 'utf8'));
  });
});
