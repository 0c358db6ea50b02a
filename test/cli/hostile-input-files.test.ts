// Files named by untrusted sources (docs/SECURITY.md): a crafted log whose header names
// /proc/self/environ as its network file (the hash chain recomputed, as anyone can), through
// every command that reads logs, in the built CLI; a survey whose items are /dev/zero or a
// FIFO. Each is refused with one line, in seconds, and prints none of the process's secrets.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('hostile-files');
const SECRET = 'sk-hostile-marker-8c1f0e';
const ENV = { HOSTILE_TEST_SECRET: SECRET };
const log = join(dir, 'rumor.ndjson');
const survey = join(dir, 'survey.ndjson');

/** The log at `from` with its header's params (and inputs) changed, re-chained so the chain verifies. */
function crafted(
  from: string,
  name: string,
  edit: (header: Record<string, unknown>) => void,
  keepEnd = true,
): string {
  const raw = lines(from);
  const header = JSON.parse(raw[0]);
  edit(header);
  const path = join(dir, name);
  writeFileSync(path, reChain([JSON.stringify(header), ...raw.slice(1, keepEnd ? raw.length : -2)]));
  return path;
}

const environ = (withHash: boolean) => (h: Record<string, unknown>) => {
  h.params = { ...(h.params as object), network: 'csv', networkFile: '/proc/self/environ' };
  if (withHash) h.inputs = { networkFile: 'f'.repeat(64) };
};

/** Every command that reads a log and builds its world, as a user would call it. */
const COMMANDS: [string, (l: string) => string[]][] = [
  ['replay', (l) => ['replay', l, '--verify']],
  ['inspect', (l) => ['inspect', l, '--agent', '0']],
  ['fork', (l) => ['fork', l, '--at', '2', '--out', join(dir, `child-${Math.random()}.ndjson`)]],
  ['audit', (l) => ['audit', l]],
  ['report', (l) => ['report', l, '--out', join(dir, `r-${Math.random()}.html`)]],
  ['export', (l) => ['export', l, '--what', 'agents', '--out', join(dir, `e-${Math.random()}.csv`)]],
  ['view', (l) => ['view', l, '--port', '0']],
];

beforeAll(async () => {
  const r = await cli([
    'run',
    'rumor',
    '--set',
    'n=60',
    '--ticks',
    '8',
    '--log',
    'full',
    '--out',
    log,
    '--quiet',
  ]);
  expect(r.code, r.stderr).toBe(0);
  const s = await cli(['run', 'survey', '--set', 'agents=3', '--out', survey, '--quiet']);
  expect(s.code, s.stderr).toBe(0);
}, 180_000);

function expectNoSecret(r: { stdout: string; stderr: string }, what: string): void {
  expect(r.stdout + r.stderr, what).not.toContain(SECRET);
  expect(r.stdout + r.stderr, what).not.toMatch(/HOSTILE_TEST_SECRET|expected two node labels/);
  expect(hasStack(r.stderr), what).toBe(false);
}

describe('a header naming /proc/self/environ', { timeout: 300_000 }, () => {
  it.each(COMMANDS)('%s never opens it and prints no secret', async (name, args) => {
    for (const withHash of [false, true]) {
      const target = crafted(log, `environ-${name}-${withHash}.ndjson`, environ(withHash));
      const r = await cli(args(target), { env: ENV, timeoutMs: 60_000 });
      expect(r.hung, name).toBe(false);
      expectNoSecret(r, name);
      const refusal = withHash
        ? /a kernel file \(\/proc, \/sys, \/dev\) is never read as input/
        : /the log names networkFile=\/proc\/self\/environ but records no sha256 of it/;
      expect(r.stdout + r.stderr, `${name}: ${r.stderr}`).toMatch(refusal);
      // report and export leave out what needs the world (with a warning); the others stop
      if (name !== 'report' && name !== 'export') expect(r.code, `${name}: ${r.stderr}`).toBe(2);
    }
  });

  it('resume of a cut log never opens it either', async () => {
    const target = crafted(log, 'environ-resume.ndjson', environ(false), false);
    const r = await cli(['resume', target], { env: ENV, timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expectNoSecret(r, 'resume');
    expect(r.stderr).toMatch(/records no sha256 of it/);
  });

  it('naming the file on the command line still refuses a kernel file, in one line', async () => {
    const target = crafted(log, 'environ-named.ndjson', environ(false));
    const r = await cli(['replay', target, '--verify', '--input', 'networkFile=/proc/self/environ'], {
      env: ENV,
    });
    expect(r.code).toBe(2);
    expectNoSecret(r, 'replay --input');
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('a run given it on the command line refuses it too (the reader never reads kernel files)', async () => {
    const r = await cli(
      [
        'run',
        'rumor',
        '--set',
        'network=csv',
        '--set',
        'networkFile=/proc/self/environ',
        '--quiet',
        '--out',
        join(dir, 'x.ndjson'),
      ],
      { env: ENV },
    );
    expect(r.code).toBe(2);
    expectNoSecret(r, 'run');
    expect(existsSync(join(dir, 'x.ndjson'))).toBe(false);
  });
});

describe('survey items that are not regular files', { timeout: 300_000 }, () => {
  const fifo = join(dir, 'items.fifo');
  beforeAll(() => {
    execFileSync('mkfifo', [fifo]);
  });

  it.each([
    ['/dev/zero', /not a regular file|kernel file/],
    ['FIFO', /not a regular file \(a FIFO, device or socket\)/],
  ])('run --set items=%s exits 2 in seconds with one line', async (which, reason) => {
    const path = which === 'FIFO' ? fifo : which;
    const started = Date.now();
    const r = await cli(
      [
        'run',
        'survey',
        '--set',
        `items=${path}`,
        '--quiet',
        '--out',
        join(dir, `s-${which.replace('/', '')}.ndjson`),
      ],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.hung).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toMatch(/bad_alloc|heap/);
    expect(hasStack(r.stderr)).toBe(false);
  });

  it('a survey log naming a FIFO with a recorded hash is refused, not read', async () => {
    const target = crafted(survey, 'survey-fifo.ndjson', (h) => {
      h.params = { ...(h.params as object), items: fifo };
      const inputs = h.inputs as { survey: { items: { file: string; sha256: string } } };
      inputs.survey.items = { file: fifo, sha256: 'e'.repeat(64) };
    });
    const r = await cli(['replay', target, '--verify'], { timeoutMs: 60_000 });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a regular file \(a FIFO, device or socket\)/);
  });
});
