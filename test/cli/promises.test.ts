import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

// The commands run in this process (the CLI's `main`): these cases are about what a command
// decides (exit codes, error lines, the logs written), and a process start costs ~0.3 CPU-s.
// The damaged log given to audit, and the header-only diff, go to real processes (the one
// spawned audit and diff of the suite: exit code, error line, stdout of the process).

const dir = tempDir();
const parent = join(dir, 'parent.ndjson');

beforeAll(async () => {
  const r = await cliChecked([
    'run',
    'rumor',
    '--set',
    'n=600',
    '--seed',
    '2',
    '--ticks',
    '30',
    '--out',
    parent,
    '--quiet',
  ]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

function finalSummary(path: string): { rumor: { reach: number } } {
  const end = lines(path)
    .map((l) => JSON.parse(l))
    .find((e) => e.type === 'end');
  return end.summary;
}

describe('docs/examples/debunk.yaml debunks (issue 15, item 21)', () => {
  it("lowers the rumour's reach", async () => {
    const child = join(dir, 'debunked.ndjson');
    const r = await cliChecked([
      'fork',
      parent,
      '--at',
      '3',
      '--intervene',
      'docs/examples/debunk.yaml',
      '--out',
      child,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(finalSummary(child).rumor.reach).toBeLessThan(finalSummary(parent).rumor.reach);
  }, 120_000);
});

describe('diff (issue 15, item 17)', () => {
  it('shows a header-only difference as the header fields that differ', async () => {
    const other = join(dir, 'longer.ndjson');
    expect(
      (
        await cliChecked([
          'run',
          'rumor',
          '--set',
          'n=600',
          '--seed',
          '2',
          '--ticks',
          '31',
          '--out',
          other,
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    // the one spawned diff of the suite: its text on a real process's stdout
    const r = await cli(['diff', parent, other]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('the headers differ in: ticks');
    expect(r.stdout).not.toContain('[]');
  }, 120_000);

  it('compares memory, and lists only the fields that differ', async () => {
    // same states, another memory: rewrite the final snapshot's memory columns of agent 0
    const raw = lines(parent);
    const k = raw.findLastIndex((l) => l.includes('"type":"snapshot"'));
    const snap = JSON.parse(raw[k]);
    const col = Buffer.from(snap.state.executor.columns[0], 'base64');
    const width = col.length / snap.state.executor.size;
    col[0] ^= 0xff;
    snap.state.executor.columns[0] = col.toString('base64');
    raw[k] = JSON.stringify(snap);
    const edited = join(dir, 'memory-edited.ndjson');
    writeFileSync(edited, reChain(raw));
    const r = await cliChecked(['diff', parent, edited, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(width).toBeGreaterThan(0);
    expect(d.agents.differing).toBe(1);
    expect(Object.keys(d.agents.sample[0].a)).toEqual(['mem.0']);
    expect(d.first.a.fields).toEqual(['state']);
  }, 120_000);
});

describe('audit (issue 15, items 10, 16)', () => {
  let log = '';
  beforeAll(async () => {
    log = join(dir, 'town.ndjson');
    const r = await cliChecked([
      'run',
      'town-square',
      '--set',
      'agents=20',
      '--ticks',
      '4',
      '--log',
      'full',
      '--out',
      log,
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
  }, 180_000);

  it('a text an agent owns itself is not a leak (agents=20 repeats personas)', async () => {
    const r = await cliChecked(['audit', log, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a.prompts).toBeGreaterThan(0);
    expect(a.leaks).toBe(0);
  }, 120_000);

  it('an llm record whose messages are null is a damaged log: exit 2, one line', async () => {
    const raw = lines(log);
    const k = raw.findIndex((l) => l.includes('"type":"llm"') && l.includes('"messages"'));
    const e = JSON.parse(raw[k]);
    e.messages = null;
    raw[k] = JSON.stringify(e);
    const bad = join(dir, 'null-messages.ndjson');
    writeFileSync(bad, reChain(raw));
    const r = await cli(['audit', bad]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(`line ${k + 1}`);
    expect(hasStack(r.stdout + r.stderr)).toBe(false);
    expect(existsSync(bad)).toBe(true);
  }, 120_000);
});

describe('inspect a list of agents (issue 15, item 20)', () => {
  it('--agent 1,2 --json reports both; --agent all needs --json', async () => {
    const r = await cliChecked(['inspect', parent, '--agent', '1,2', '--at', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.agents.map((a: { agent: number }) => a.agent)).toEqual([1, 2]);
    expect(j.agents[0].state).toBeDefined();
    const all = await cliChecked(['inspect', parent, '--agent', 'all']);
    expect(all.code).toBe(2);
    expect(hasStack(all.stderr)).toBe(false);
  }, 120_000);
});
