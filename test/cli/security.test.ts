import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { ECHO_WORLD } from '../support/echo-world.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir();
const good = join(dir, 'echo-world.ts');
const evil = join(dir, 'evil-world.ts');
const marker = join(dir, 'IMPORTED');
const log = join(dir, 'echo.ndjson');

// Most cases run the CLI in this process (cliInProcess): they test what a command decides (exit
// code, error line, whether a file was imported), and a refused command must leave nothing open.
// The log is written, replayed with its world file, and the evil file named on the command line
// refused, by real processes.

/** A world file whose top-level code leaves a marker: it must never be imported. */
const EVIL_WORLD = `import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(marker)}, 'imported');
export {};
`;

/** The log with its header's world source replaced, re-chained so that the chain verifies. */
function crafted(name: string, source: Record<string, unknown>, id = 'echo'): string {
  const raw = lines(log);
  const header = JSON.parse(raw[0]);
  header.world = { ...header.world, id, source };
  const path = join(dir, name);
  writeFileSync(path, reChain([JSON.stringify(header), ...raw.slice(1, -2)]));
  return path;
}

beforeAll(async () => {
  writeFileSync(good, ECHO_WORLD);
  writeFileSync(evil, EVIL_WORLD);
  // --no-check here and at its replay: what a log makes grapevine run is the case, not the
  // world's type check (test/cli/cli.test.ts runs this world checked)
  const r = await cli(['run', good, '--ticks', '6', '--out', log, '--log', 'full', '--quiet', '--no-check']);
  expect(r.code).toBe(0);
}, 120_000);

const COMMANDS: [string, (log: string) => string[]][] = [
  ['replay', (l) => ['replay', l, '--verify']],
  ['inspect', (l) => ['inspect', l, '--agent', '1']],
  ['fork', (l) => ['fork', l, '--at', '1', '--out', join(dir, `child-${Math.random()}.ndjson`)]],
  ['audit', (l) => ['audit', l]],
  ['resume', (l) => ['resume', l]],
  ['diff', (l) => ['diff', l, log]],
];

describe('a log never makes grapevine run code (issue 15, item 1)', () => {
  it('a crafted header naming another world file never executes it', async () => {
    const sha = (JSON.parse(lines(log)[0]).world.source as { sha256: string }).sha256;
    const wrongHash = crafted('wrong-hash.ndjson', { kind: 'file', path: evil, sha256: sha });
    const asBuiltin = crafted('as-id.ndjson', { kind: 'builtin' }, evil);
    for (const target of [wrongHash, asBuiltin]) {
      for (const [name, args] of target === wrongHash ? COMMANDS : COMMANDS.slice(0, 1)) {
        const r = await cliInProcess(args(target));
        expect(r.leaked, name).toEqual([]);
        expect(existsSync(marker), `${name} ${target} imported the file`).toBe(false);
        if (name !== 'diff') expect(r.code, `${name}: ${r.stderr}`).toBe(2);
        expect(hasStack(r.stderr)).toBe(false);
      }
      // naming the evil file explicitly does not run it either: its hash is checked first
      const r = await cli(['replay', target, '--verify', '--world', evil]);
      expect(r.code).toBe(2);
      expect(existsSync(marker)).toBe(false);
    }
  }, 300_000);

  it('a log written by a world file replays only when the user names that file', async () => {
    const without = await cliInProcess(['replay', log, '--verify']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--world');
    expect(without.stderr.trim().split('\n')).toHaveLength(2);
    // spawned, as the log was written: the compiled CLI resolves the file's 'grapevine' to itself
    const named = await cli(['replay', log, '--verify', '--world', good, '--no-check']);
    expect(named.code, named.stderr).toBe(0);
    writeFileSync(join(dir, 'changed.ts'), `${ECHO_WORLD}\n// edited\n`);
    const changed = await cliInProcess(['replay', log, '--verify', '--world', join(dir, 'changed.ts')]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('is not the world file that wrote the log');
  }, 120_000);

  it('a header without a world is refused with exit 2 (issue 15, item 10)', async () => {
    const raw = lines(log);
    const header = JSON.parse(raw[0]);
    delete header.world;
    const path = join(dir, 'no-world.ndjson');
    writeFileSync(path, reChain([JSON.stringify(header), ...raw.slice(1)]));
    for (const args of [
      ['replay', path, '--verify'],
      ['inspect', path],
      ['audit', path],
    ]) {
      const r = await cliInProcess(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.leaked).toEqual([]);
      expect(r.stdout + r.stderr).toContain('names no valid world');
      expect(hasStack(r.stderr)).toBe(false);
    }
    expect(readFileSync(log, 'utf8').length).toBeGreaterThan(0);
  }, 120_000);
});

describe('prototype keys are refused (issue 15, item 2)', () => {
  it.each([
    ['__proto__.n=50'],
    ['__proto__.x=1'],
    ['constructor.prototype.x=1'],
    ['n={"__proto__":{"x":1}}'],
  ])('run --set %s exits 2 and writes nothing', async (assignment) => {
    const out = join(dir, `proto-${Math.random()}.ndjson`);
    const r = await cliInProcess([
      'run',
      'rumor',
      '--set',
      assignment,
      '--ticks',
      '2',
      '--out',
      out,
      '--quiet',
    ]);
    expect(r.code).toBe(2);
    expect(r.leaked).toEqual([]);
    expect(r.stderr).toMatch(/__proto__|constructor/);
    expect(existsSync(out)).toBe(false);
  });

  it('a config file or an intervention file with a __proto__ key is refused', async () => {
    const config = join(dir, 'proto-config.json');
    writeFileSync(config, '{"params": {"__proto__": {"n": 50}}}');
    const r = await cliInProcess(['run', 'rumor', '--config', config, '--out', join(dir, 'pc.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('__proto__');
    const base = join(dir, 'rumor.ndjson');
    expect((await cliInProcess(['run', 'rumor', '--set', 'n=200', '--out', base, '--quiet'])).code).toBe(0);
    for (const [name, text] of [
      ['iv.json', '{"type": "params", "set": {"__proto__": {"p": 1}}}'],
      ['iv.yaml', 'type: params\nset:\n  __proto__:\n    p: 1\n'],
    ]) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const out = join(dir, `iv-${name}.ndjson`);
      const f = await cliInProcess(['fork', base, '--at', '1', '--intervene', file, '--out', out]);
      expect(f.code, f.stderr).toBe(2);
      expect(f.leaked).toEqual([]);
      expect(f.stderr).toContain('__proto__');
      expect(existsSync(out)).toBe(false);
    }
  }, 120_000);
});
