// The lock a writer of a log holds (`<log>.lock`, holdLogLock): `run` and `resume` take it, so
// that a resume never writes a log another live process still writes (issue 30). A lock left by
// a process that is gone, or whose pid now names a later process, is taken over; one held by a
// live process, or written on another host, is refused in one line with a hint.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LogFormatError } from '../../src/core/index.ts';
import { holdLogLock } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('log-lock');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

let fileNo = 0;
const logPath = (): string => join(dir, `log-${fileNo++}.ndjson`);
const holderIn = (log: string): { pid: number; host: string; start?: number } =>
  JSON.parse(readFileSync(`${log}.lock`, 'utf8'));

/** The error holdLogLock throws for `log`, or a failure when it takes the lock. */
function refusal(log: string): LogFormatError {
  try {
    holdLogLock(log)();
  } catch (err) {
    expect(err).toBeInstanceOf(LogFormatError);
    return err as LogFormatError;
  }
  throw new Error(`${log}: the lock was taken`);
}

/** A pid no process has any more: a child that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

describe('holdLogLock', () => {
  it('creates the lock naming this process, refuses a second holder, and its release removes it', () => {
    const log = logPath();
    const release = holdLogLock(log);
    expect(holderIn(log)).toMatchObject({ pid: process.pid, host: hostname() });
    const err = refusal(log);
    expect(err.message).toBe(`${log} is being written by process ${process.pid}: it holds ${log}.lock`);
    expect(err.hint).toMatch(/^wait for that run to finish or stop it .*remove .*\.lock$/);
    release();
    expect(existsSync(`${log}.lock`)).toBe(false);
    holdLogLock(log)();
    expect(existsSync(`${log}.lock`)).toBe(false);
  });

  it('refuses a lock a live process holds, and takes it over once that process is gone', async () => {
    const log = logPath();
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(child);
    const pid = child.pid as number;
    writeFileSync(`${log}.lock`, JSON.stringify({ pid, host: hostname() }));
    expect(refusal(log).message).toBe(`${log} is being written by process ${pid}: it holds ${log}.lock`);
    await new Promise((done) => {
      child.on('exit', done);
      child.kill('SIGKILL');
    });
    const release = holdLogLock(log);
    expect(holderIn(log).pid).toBe(process.pid);
    release();
  });

  it('takes over a lock whose process is gone, or whose pid now names a process started later', () => {
    const gone = logPath();
    writeFileSync(`${gone}.lock`, JSON.stringify({ pid: deadPid(), start: 5, host: hostname() }));
    const release = holdLogLock(gone);
    expect(holderIn(gone).pid).toBe(process.pid);
    release();

    // this very process, recorded with another start time: the pid was reused
    const reused = logPath();
    writeFileSync(`${reused}.lock`, JSON.stringify({ pid: process.pid, start: 1, host: hostname() }));
    const again = holdLogLock(reused);
    expect(holderIn(reused).start).not.toBe(1);
    again();
    expect(existsSync(`${reused}.stale-${process.pid}`)).toBe(false);
  });

  it('never takes over a lock from another host, nor one it cannot read', () => {
    const log = logPath();
    writeFileSync(`${log}.lock`, JSON.stringify({ pid: deadPid(), host: 'elsewhere.invalid' }));
    expect(refusal(log).message).toMatch(/ is being written by process \d+ on elsewhere\.invalid: it holds /);
    const garbled = logPath();
    writeFileSync(`${garbled}.lock`, '{"pid":');
    expect(refusal(garbled).message).toBe(
      `${garbled} is being written by another process: it holds ${garbled}.lock`,
    );
    expect(readFileSync(`${garbled}.lock`, 'utf8')).toBe('{"pid":');
  });
});
