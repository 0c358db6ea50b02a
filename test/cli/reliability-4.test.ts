// Issue 15: a run too large to hold its own deliveries stops cleanly instead of
// being killed for lack of memory (the budget lowered with GRAPEVINE_MEMORY_LIMIT, never a
// real out-of-memory): exit 1 and one line saying how much it needs, and a log that ends
// at the last complete tick and is kept, so that `resume` continues it where more memory
// is available to the digest of an uninterrupted run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir();

/** rumor on a complete graph of 200: 1990 deliveries in flight after tick 1, 2388 after tick 2. */
const RUN = [
  ...['run', 'rumor', '--set', 'n=200', '--set', 'network=complete'],
  ...['--set', 'model=independent-cascade', '--set', 'p=0.01', '--ticks', '3'],
];

/** Types and ticks of a log's lines. */
function lines(path: string): { type: string; t: number }[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; t: number });
}

describe('deliveries in flight past the memory budget (issue 15 items 5 and 10)', () => {
  it('run stops with exit 1 and one line; the log ends at the last complete tick and resumes to the full digest', async () => {
    const stopped = join(dir, 'stopped.ndjson');
    const full = join(dir, 'full.ndjson');
    // 100000 bytes: half of it holds tick 1's 1990 deliveries (48 KiB), not tick 2's
    const r = await cli([...RUN, '--out', stopped, '--quiet'], {
      env: { GRAPEVINE_MEMORY_LIMIT: '100000' },
      timeoutMs: 60_000,
    });
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(1);
    const err = r.stderr.trimEnd().split('\n');
    expect(err).toHaveLength(2);
    expect(err[0]).toMatch(
      /^grapevine: the \d+ deliveries \(\d+ messages\) in flight at tick 2 need about [\d.]+ KiB; the run may give them 48\.8 KiB, half its memory budget of 97\.7 KiB \(GRAPEVINE_MEMORY_LIMIT\)$/,
    );
    expect(err[1]).toMatch(
      /^hint: the log holds every tick before tick 2: continue it with grapevine resume/,
    );
    const kept = lines(stopped);
    expect(kept.map((l) => l.type)).toEqual(['header', 'tick', 'tick']);
    expect(kept[kept.length - 1].t).toBe(1);

    const resumed = await cli(['resume', stopped], { timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const whole = await cli([...RUN, '--out', full], { timeoutMs: 60_000 });
    expect(whole.code, whole.stderr).toBe(0);
    const digest = (s: string) => /digest ([0-9a-f]{64})/.exec(s)?.[1];
    expect(digest(whole.stdout)).toMatch(/^[0-9a-f]{64}$/);
    expect(digest(resumed.stdout)).toBe(digest(whole.stdout));
    expect(lines(stopped).map((l) => l.type)).toEqual(lines(full).map((l) => l.type));
  });
});
