import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  memoryBudget,
  parseCgroupLimit,
  parseMemoryLimit,
  readCgroupLimit,
} from '../../src/core/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('budget');

/** A cgroup file holding `text`. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const GIB = 1024 ** 3;
const missing = join(dir, 'no-such-file');

describe('one memory budget (issue 15)', () => {
  it('GRAPEVINE_MEMORY_LIMIT wins over the cgroup limit and the machine memory', () => {
    const cgroup = [file('v2-small', '1073741824\n')];
    expect(
      memoryBudget({ env: { GRAPEVINE_MEMORY_LIMIT: '5000' }, cgroupFiles: cgroup, total: 8 * GIB }),
    ).toEqual({
      bytes: 5000,
      source: 'GRAPEVINE_MEMORY_LIMIT',
    });
    expect(parseMemoryLimit('2G')).toBe(2 * GIB);
    expect(parseMemoryLimit('1.5 MiB')).toBe(1.5 * 1024 ** 2);
    expect(parseMemoryLimit('64k')).toBe(64 * 1024);
  });

  it('reads the cgroup limit from its files (v2 "max" is no limit), and uses it only below the machine memory', () => {
    const v2max = file('v2-max', 'max\n');
    const v1 = file('v1', '2147483648\n');
    const v1unlimited = file('v1-unlimited', '9223372036854771712\n');
    expect(parseCgroupLimit('max\n')).toBeUndefined();
    expect(parseCgroupLimit('')).toBeUndefined();
    expect(parseCgroupLimit('12 apples')).toBeUndefined();
    expect(parseCgroupLimit(' 4096\n')).toBe(4096);
    expect(readCgroupLimit([missing, v2max, v1])).toBe(2 * GIB);
    expect(readCgroupLimit([missing, v2max])).toBeUndefined();
    expect(memoryBudget({ env: {}, cgroupFiles: [v2max, v1], total: 8 * GIB })).toEqual({
      bytes: 2 * GIB,
      source: 'cgroup limit',
    });
    for (const files of [[v1unlimited], [v2max], [missing]])
      expect(memoryBudget({ env: {}, cgroupFiles: files, total: 8 * GIB })).toEqual({
        bytes: 8 * GIB,
        source: 'total memory',
      });
    expect(
      memoryBudget({ env: { GRAPEVINE_MEMORY_LIMIT: ' ' }, cgroupFiles: [missing], total: GIB }).source,
    ).toBe('total memory');
  });

  it('a bad GRAPEVINE_MEMORY_LIMIT is bad input: exit 2, one line naming the value', () => {
    for (const bad of ['abc', '-5', '0', '12X', '1e9', 'Infinity']) {
      let err: unknown;
      try {
        memoryBudget({ env: { GRAPEVINE_MEMORY_LIMIT: bad }, cgroupFiles: [missing], total: GIB });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(ConfigError);
      const e = err as ConfigError;
      expect(e.exitCode).toBe(2);
      expect(e.message).toBe(`GRAPEVINE_MEMORY_LIMIT must be a number of bytes, got ${JSON.stringify(bad)}`);
      expect(e.hint).not.toBe('');
    }
  });
});
