// Bad input to `grapevine fork` is a clear error (exit 2, one line and a hint, no stack)
// and writes nothing: no child file, no batch directory. The CLI cases run `main` in this
// process (cliChecked, no resource left open): they check what the command decides; the real
// process's exit codes and error lines are covered by test/cli/cli.test.ts and reliability.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readInterventions } from '../../src/cli/commands/fork/interventions-file.ts';
import { forkCommand } from '../../src/cli/commands/fork.ts';
import { isGrapevineError } from '../../src/core/index.ts';
import { cliChecked, cliCheckedJson } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { expectCleanError, type Line, lines, parsed, reChain, verifyInProcess, write } from './helpers.ts';

const dir = tempDir('fork-errors');
const parent = join(dir, 'parent.ndjson');
let lastTick: number;
let parentText: string;

beforeAll(async () => {
  const r = await cliCheckedJson([
    'run',
    'rumor',
    '--set',
    'n=600',
    '--seed',
    '2',
    '--snapshot-every',
    '5',
    '--out',
    parent,
  ]);
  lastTick = r.ticks as number;
  parentText = readFileSync(parent, 'utf8');
  expect(lastTick).toBeGreaterThan(12);
});

describe('malformed intervention files are rejected before anything runs', () => {
  // in-process: every shape of mistake, with the message the user sees
  it.each([
    ['bad.yaml', 'type: message\n  to: [all', 'cannot be parsed'],
    ['bad.json', '{"type": "message",', 'cannot be parsed'],
    ['unknown-field.yaml', 'type: message\nto: all\ncolour: red\n', 'Unrecognized key: "colour"'],
    ['wrong-type.yaml', 'type: agent\nagent: seven\n', 'agent: Invalid input: expected number'],
    ['negative.yaml', 'type: agent\nagent: -1\n', 'agent: Too small'],
    ['bad-address.yaml', 'type: message\nto: everyone\n', 'intervention 1: to:'],
    ['bad-edge.yaml', 'type: network\nadd: [[1, 2, 3]]\n', 'add.0'],
    ['bad-seed.yaml', 'type: reseed\nseed: 1.5\n', 'seed:'],
    ['no-set.yaml', 'type: params\n', 'set:'],
    [
      'second.yaml',
      'interventions:\n  - { type: message, to: all }\n  - { type: agent, agent: 1, memory: 5 }\n',
      'intervention 2: memory',
    ],
    ['not-object.json', '[1, 2]', 'must be an object with a "type"'],
    ['empty-list.json', '[]', 'holds no interventions'],
    ['empty.yaml', '', 'must be an object with a "type"'],
  ])('%s', (name, text, message) => {
    const path = write(dir, name, text);
    let error: unknown;
    try {
      readInterventions(path);
    } catch (e) {
      error = e;
    }
    expect(isGrapevineError(error)).toBe(true);
    expect((error as { exitCode: number }).exitCode).toBe(2);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(name);
  });

  // through the CLI (in-process): exit 2, no child file
  it.each([
    ['bad.yaml', 'type: message\n  to: [all', 'cannot be parsed'],
    ['unknown-field.json', '{"type": "message", "to": "all", "colour": "red"}', 'Unrecognized key: "colour"'],
    ['wrong-type.yaml', 'type: agent\nagent: "seven"\n', 'expected number'],
    ['missing.yaml', null, 'intervention file not found'],
  ])('fork --intervene %s: exit 2, nothing written', async (name, text, message) => {
    const file = text === null ? join(dir, 'no-such-file.yaml') : write(dir, `cli-${name}`, text);
    const out = join(dir, `child-${name}.ndjson`);
    expectCleanError(
      await cliChecked(['fork', parent, '--at', '7', '--intervene', file, '--out', out]),
      out,
      2,
      message,
    );
  });
});

describe('bad fork requests', () => {
  it.each([
    [
      '--at beyond the end',
      () => ['--at', String(lastTick + 1)],
      () => `tick ${lastTick + 1} is not in the log`,
    ],
    ['missing --at', () => [], () => 'fork needs --at'],
    ['--at not a number', () => ['--at', 'ten'], () => '--at must be a non-negative integer'],
  ])('%s: exit 2, nothing written', async (name, args, message) => {
    const out = join(dir, `child-${name.replace(/\W+/g, '-')}.ndjson`);
    expectCleanError(await cliChecked(['fork', parent, ...args(), '--out', out]), out, 2, message());
  });

  it('missing --out', async () => {
    const before = new Set(lines(parent));
    const r = await cliChecked(['fork', parent, '--at', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fork needs --out');
    expect(new Set(lines(parent))).toEqual(before);
  });

  it('an existing --out is not overwritten without --force', async () => {
    const out = write(dir, 'taken.ndjson', 'keep me\n');
    const r = await cliChecked(['fork', parent, '--at', '3', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('already exists');
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
  });
});

describe('a parent log that fails verification', () => {
  it('one byte changed: exit 2 naming the line, nothing written', async () => {
    const raw = lines(parent);
    const seq = parsed(parent).findIndex((l) => l.type === 'tick' && l.t === 4);
    raw[seq] = raw[seq].replace('"stepped":', '"steppeD":');
    const bad = write(dir, 'one-byte.ndjson', `${raw.join('\n')}\n`);
    const out = join(dir, 'child-of-one-byte.ndjson');
    expectCleanError(await cliChecked(['fork', bad, '--at', '8', '--out', out]), out, 2, `seq ${seq}`);
  });

  it('a forged tick (chain recomputed) between the snapshot and the fork tick: an error, nothing written', async () => {
    const raw = lines(parent);
    const log = parsed(parent);
    const seq = log.findIndex((l) => l.type === 'tick' && l.t === 7);
    const obj = JSON.parse(raw[seq]) as Line & { metrics: Record<string, number> };
    obj.metrics['rumor.aware'] += 1;
    raw[seq] = JSON.stringify(obj);
    const forged = write(dir, 'forged-tail.ndjson', reChain(raw));
    const out = join(dir, 'child-of-forged-tail.ndjson');
    const r = await cliChecked(['fork', forged, '--at', '8', '--out', out]);
    // the recorded tail 6..8 is rerun from the snapshot at 5 and checked line by line
    expect(r.stderr).toContain(`seq ${seq} (tick 7)`);
    expect([1, 2]).toContain(r.code);
    expect(existsSync(out), 'a fork that fails must not leave a partial child').toBe(false);
  });

  it('a forgery before the restored snapshot is carried into the child, whose replay --verify then fails', async () => {
    // A fork trusts the snapshot it restores (that is what makes it O(snapshot + tail)); the
    // child's own verification reruns from tick 0 and catches the edited past.
    const raw = lines(parent);
    const seq = parsed(parent).findIndex((l) => l.type === 'tick' && l.t === 3);
    const obj = JSON.parse(raw[seq]) as Line & { metrics: Record<string, number> };
    obj.metrics['rumor.aware'] += 1;
    raw[seq] = JSON.stringify(obj);
    const forged = write(dir, 'forged-past.ndjson', reChain(raw));
    const out = join(dir, 'child-of-forged-past.ndjson');
    await cliCheckedJson(['fork', forged, '--at', '8', '--out', out]);
    await expect(verifyInProcess(out)).rejects.toThrow(`seq ${seq} (tick 3)`);
  });
});

describe('interventions that only fail when applied (agents, channels, the network) write nothing', () => {
  // Every engine intervention is schema-checked when the file is read, but agent indices,
  // events and channel names can only be checked against the world: the fork must still
  // fail cleanly (exit 2) and leave no partial child behind.
  const cases: [string, Record<string, unknown>, string][] = [
    ['agent out of range', { type: 'agent', agent: 99999, events: ['HEAR_RUMOR'] }, 'agent 99999'],
    ['message to an agent out of range', { type: 'message', to: { agent: 99999 } }, '99999'],
    ['message from an agent out of range', { type: 'message', from: 99999, to: 'all' }, '99999'],
    ['message to an unknown channel', { type: 'message', to: { channel: 'nowhere' } }, 'nowhere'],
    ['network edit out of range', { type: 'network', isolate: [99999] }, '99999'],
    ['network self loop', { type: 'network', add: [[3, 3]] }, 'self loop'],
    ['unknown statechart event', { type: 'agent', agent: 3, events: ['HEAR_GOSSIP'] }, 'HEAR_GOSSIP'],
    [
      'text memory on a columnar agent',
      { type: 'agent', agent: 3, memory: { note: 'hi' } },
      'the columnar executor keeps the numeric slots the machine declares',
    ],
    ['unknown intervention type', { type: 'weather', rain: true }, 'unknown intervention type "weather"'],
    ['parameter out of range', { type: 'params', set: { p: 7 } }, 'parameter "p"'],
  ];
  const slug = (name: string) => name.replace(/\W+/g, '-');

  // in-process through the command itself (what `grapevine fork` runs, minus argv parsing
  // and the exit-code mapping, which is the error's own `exitCode`)
  it.each(cases)('%s', async (name, body, message) => {
    const file = write(dir, `apply-${slug(name)}.json`, JSON.stringify(body));
    const out = join(dir, `child-apply-${slug(name)}.ndjson`);
    let error: unknown;
    try {
      await forkCommand(parent, { at: '7', intervene: [file], out, quiet: true });
    } catch (e) {
      error = e;
    }
    expect(error, 'the fork must fail').toBeDefined();
    expect({
      grapevineError: isGrapevineError(error),
      exitCode: (error as { exitCode?: number }).exitCode,
      message: (error as Error).message,
    }).toMatchObject({ grapevineError: true, exitCode: 2, message: expect.stringContaining(message) });
    expect(existsSync(out), `${out} must not exist`).toBe(false);
  });

  // and two of them through the CLI (in-process)
  it.each([cases[0], cases[1]])('CLI: %s', async (name, body, message) => {
    const file = write(dir, `cli-apply-${slug(name)}.json`, JSON.stringify(body));
    const out = join(dir, `cli-child-apply-${slug(name)}.ndjson`);
    expectCleanError(
      await cliChecked(['fork', parent, '--at', '7', '--intervene', file, '--out', out]),
      out,
      2,
      message,
    );
  });

  it('--replicates with such an intervention leaves no partial child', async () => {
    const file = write(dir, 'batch-bad.json', JSON.stringify({ type: 'agent', agent: 99999 }));
    const out = join(dir, 'batch-bad');
    await expect(
      forkCommand(parent, { at: '7', intervene: [file], replicates: '2', out, quiet: true }),
    ).rejects.toThrow('agent 99999');
    expect(existsSync(join(out, 'treated-1.ndjson')), 'no partial treated child').toBe(false);
  });
});

it('the parent is never modified by any of the above', () => {
  expect(readFileSync(parent, 'utf8')).toBe(parentText);
});
