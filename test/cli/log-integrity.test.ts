// A log is never lost to a failure after its first tick, and `resume` finishes it (issue 30,
// items 3, 4 and 17): a write that fails at the end of a run (a full disk: a small tmpfs when
// the tests run as root, else a file size limit) leaves the log at its last complete tick and
// the hint says to resume; a log cut at any byte resumes to the uninterrupted digest and
// bytes, with no snapshot written twice; `resume` refuses a log a live run still writes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, cli } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('integrity');
const mounted: string[] = [];
afterAll(() => {
  for (const m of mounted) spawnSync('umount', [m]);
});

const RUMOR = ['run', 'rumor', '--set', 'n=2000', '--seed', '5', '--snapshot-every', '5', '--quiet'];

/** A log's lines (without `\n`), gunzipped for `.gz`. */
function lines(path: string): string[] {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').trimEnd().split('\n');
}

/** The digest `replay --verify` finds, or its error. */
async function verify(path: string): Promise<string> {
  const r = await cliChecked(['replay', path, '--verify']);
  return r.code === 0 ? (/digest ([0-9a-f]{64})/.exec(r.stdout)?.[1] ?? '') : r.stderr;
}

/** Mounts a tmpfs of `bytes` at a fresh folder; undefined when this process may not (not root). */
function smallDisk(bytes: number): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const at = join(dir, `disk-${mounted.length}`);
  mkdirSync(at);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', at]).status !== 0) return undefined;
  mounted.push(at);
  return at;
}

/** `grapevine ...args` whose file writes fail past `bytes` (EFBIG: the signal is ignored, so the write returns an error). */
function withSizeLimit(args: string[], bytes: number): Promise<{ code: number | null; stderr: string }> {
  const script = `trap '' XFSZ; ulimit -f ${Math.floor(bytes / 512)}; exec "$0" "$@"`;
  return new Promise((done) => {
    const child = spawn('sh', ['-c', script, process.execPath, BIN, ...args], {
      env: cleanEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('a run whose last write fails', () => {
  it('keeps its log at the last complete tick, says to resume, and resume finishes it with the full digest', async () => {
    const ref = join(dir, 'ref.ndjson');
    expect((await cliChecked([...RUMOR, '--out', ref])).code).toBe(0);
    const refLines = lines(ref);
    const digest = await verify(ref);
    // the last flush (the final snapshot and the end line) starts here; everything before it fits
    const lastFlush = refLines.slice(0, -2).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    const disk = smallDisk((Math.ceil(lastFlush / 4096) + 1 + 8) * 4096); // + the lock file + 8 pages of the last flush
    const out = join(disk ?? dir, 'full.ndjson');
    const r = disk
      ? await cli([...RUMOR, '--out', out])
      : await withSizeLimit([...RUMOR, '--out', out], lastFlush + 8 * 4096);
    expect(r.code).toBe(1);
    const err = r.stderr.trimEnd().split('\n');
    expect(err).toHaveLength(2);
    expect(err[0]).toMatch(/^grapevine: the run stopped: cannot write the end of the log: .*(ENOSPC|EFBIG)$/);
    expect(err[1]).toMatch(
      /^hint: free disk space .*then resume the run; the log ends at the last complete tick$/,
    );
    // the log is there, cut in its last flush: every line of the run but the final snapshot and end
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out).length).toBeGreaterThan(lastFlush);
    if (disk) spawnSync('mount', ['-o', 'remount,size=8M', disk]);
    const resumed = await cliChecked(['resume', out]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`digest ${digest}`);
    // the same lines as the run that did not fail (the header's wall-clock part aside)
    expect(lines(out).slice(1)).toEqual(refLines.slice(1));
    expect(await verify(out)).toBe(digest);
  }, 300_000);
});

/** Byte offsets to cut a log at: around and inside its last lines, in the middle of each snapshot, and a spread of others. */
function cuts(bytes: Buffer): number[] {
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  const out = new Set<number>([1, 7, starts[1] - 3]);
  for (const s of starts.slice(-6)) for (const d of [-1, 0, 1, 40]) out.add(s + d);
  const text = bytes.toString('latin1');
  for (let k = 0; k + 1 < starts.length; k++)
    if (/"type":"snapshot(-part)?"/.test(text.slice(starts[k + 1] - 60, starts[k + 1])))
      out.add((starts[k] + starts[k + 1]) >> 1);
  for (let k = 1; k < 9; k++) out.add(Math.floor((bytes.length * k) / 9));
  return [...out].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
}

describe('resume of a log cut at any byte', () => {
  const cases = [
    { name: 'a run that dies out between snapshots', ext: 'ndjson', args: [] as string[], env: {} },
    {
      name: 'a run stopped at a periodic snapshot (two snapshots at its last tick)',
      ext: 'ndjson',
      args: ['--ticks', '20'],
      env: {},
    },
    { name: 'a gzip log', ext: 'ndjson.gz', args: ['--ticks', '20'], env: {} },
    {
      name: 'split snapshots',
      ext: 'ndjson',
      args: ['--ticks', '20'],
      env: { GRAPEVINE_LOG_LINE_BOUND: '16384' },
    },
  ];
  for (const c of cases)
    it(`reaches the uninterrupted digest and bytes, no snapshot twice, and verifies (${c.name})`, async () => {
      const ref = join(dir, `cut-ref-${cases.indexOf(c)}.${c.ext}`);
      expect((await cliChecked([...RUMOR, ...c.args, '--out', ref], { env: c.env })).code).toBe(0);
      const whole = readFileSync(ref);
      const refLines = lines(ref);
      const digest = await verify(ref);
      if (c.env.GRAPEVINE_LOG_LINE_BOUND)
        expect(refLines.some((l) => l.includes('"type":"snapshot-part"'))).toBe(true);
      const path = join(dir, `cut.${c.ext}`);
      let resumed = 0;
      for (const cut of cuts(whole)) {
        writeFileSync(path, whole.subarray(0, cut));
        const r = await cliChecked(['resume', path, '--quiet'], { env: c.env });
        if (r.code !== 0) {
          // nothing to resume from (no complete header): one line, the file left as it was
          expect(r.code, `cut at ${cut}: ${r.stderr}`).toBe(2);
          expect(r.stderr).toMatch(/header line|not a grapevine log/);
          expect(readFileSync(path).equals(whole.subarray(0, cut))).toBe(true);
          continue;
        }
        resumed++;
        expect(lines(path), `cut at byte ${cut} of ${whole.length}`).toEqual(refLines);
      }
      expect(resumed).toBeGreaterThan(10);
      expect(await verify(path)).toBe(digest);
    }, 600_000);
});

describe('resume of a log a live run is writing', () => {
  it('is refused (exit 2, one line, a hint), as is a run forced onto it; once the run is killed, the log resumes to its full digest', async () => {
    const args = ['run', 'rumor', '--set', 'n=50000', '--set', 'model=independent-cascade', '--set', 'p=0.5'];
    args.push(
      '--set',
      'network=watts-strogatz',
      '--set',
      'k=10',
      '--set',
      'beta=0.0002',
      '--ticks',
      '150',
      '--quiet',
    );
    const ref = join(dir, 'live-ref.ndjson');
    expect((await cliChecked([...args, '--out', ref])).code).toBe(0);
    const digest = await verify(ref);
    const out = join(dir, 'live.ndjson');
    let child: ReturnType<typeof spawn> | undefined;
    const run = cli([...args, '--out', out], { onSpawn: (c) => (child = c) });
    // the run holds its lock from before its log exists; wait for a tick to be written
    for (let i = 0; i < 6000 && !(existsSync(`${out}.lock`) && existsSync(out) && lines(out).length > 3); i++)
      await new Promise((r) => setTimeout(r, 5));
    // stopped, not ended: the run stays live (its lock held) however fast this machine is
    child?.kill('SIGSTOP');
    const refused = await cliChecked(['resume', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^grapevine: .*live\.ndjson is being written by process \d+: it holds .*\.lock\nhint: wait for that run to finish or stop it .*\n$/,
    );
    // a run forced onto the same path is refused too, before it touches the file
    const before = lines(out).length;
    const forced = await cliChecked([...args, '--out', out, '--force']);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toMatch(/live\.ndjson is being written by process \d+/);
    expect(lines(out).length).toBeGreaterThanOrEqual(before);
    child?.kill('SIGKILL');
    expect((await run).signal).toBe('SIGKILL');
    // the lock of the killed run is stale: taken over
    expect(existsSync(`${out}.lock`)).toBe(true);
    const resumed = await cliChecked(['resume', out]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`digest ${digest}`);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 300_000);
});
