// Issue 15, remaining cases (session 5): a run whose deliveries in flight would not fit in
// memory is refused with exit 2 before its snapshot is built (the bound lowered with
// GRAPEVINE_MEMORY_LIMIT, never a real out-of-memory), generator parameters a network
// ignores are refused, and the error paths found by walking every command end cleanly.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MessageBus } from '../../src/bus/index.ts';
import { checkBusStateFits, estimateBusStateBytes } from '../../src/bus/state-budget.ts';
import { SeededStream } from '../../src/core/index.ts';
import { cli, tempDir } from './run-cli.ts';

const dir = tempDir();

/** One line of error and one hint, no stack trace. */
function expectOneLine(stderr: string): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^grapevine: /);
  expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('deliveries in flight that cannot fit are refused before the snapshot (issue 15 items 5 and 10)', () => {
  it('estimates the exported columns exactly and refuses a state over the budget', () => {
    const rng = new SeededStream('state-budget');
    const bus = new MessageBus({ size: 50 });
    bus.defineChannel(
      'all',
      Array.from({ length: 50 }, (_, i) => i),
    );
    for (let s = 0; s < 30; s++)
      bus.post(rng.int(50), 0, { address: { to: 'channel', channel: 'all' }, kind: 'tell' });
    const rows = bus.pendingCount;
    expect(rows).toBe(30 * 49); // a channel post reaches every member but its sender
    const state = bus.exportState() as { pending: { to: string; msg: string }[] };
    const columnChars = state.pending.reduce((n, b) => n + b.to.length + b.msg.length, 0);
    const estimate = estimateBusStateBytes({ rows, messages: 0, tick: 0 });
    // two base64 columns are each padded separately: the estimate is within 4 characters per batch
    expect(Math.abs(estimate - columnChars)).toBeLessThanOrEqual(4 * state.pending.length);
    expect(() => checkBusStateFits({ rows, messages: 30, tick: 0 }, estimate)).toThrow(
      /1470 deliveries in flight at tick 0 need about .* to snapshot/,
    );
    expect(() => checkBusStateFits({ rows, messages: 0, tick: 0 }, estimate + 8)).not.toThrow();
  });

  it('run: exit 2 naming the deliveries and the memory, no log left behind', async () => {
    const out = join(dir, 'too-big.ndjson');
    const r = await cli(
      [
        ...['run', 'rumor', '--set', 'n=200', '--set', 'network=complete'],
        ...['--set', 'model=independent-cascade', '--set', 'p=0.01', '--ticks', '3', '--out', out, '--quiet'],
      ],
      { env: { GRAPEVINE_MEMORY_LIMIT: '10000' }, timeoutMs: 60_000 },
    );
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /deliveries in flight at tick 3 need about [\d.]+ KiB to snapshot; only 9\.8 KiB/,
    );
    expectOneLine(r.stderr);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('too-big'))).toEqual([]);
  });
});
