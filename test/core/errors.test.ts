import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DivergenceError,
  GrapevineError,
  isGrapevineError,
  LogFormatError,
  RunError,
  UsageError,
  WorldNotFoundError,
} from '../../src/core/index.ts';

describe('GrapevineError and its subclasses', () => {
  const cause = new Error('root cause');
  const cases: [string, GrapevineError, string, 1 | 2][] = [
    ['UsageError', new UsageError('bad flag', { hint: 'use --help', cause }), 'E_USAGE', 2],
    ['ConfigError', new ConfigError('bad param', { hint: 'fix it', cause }), 'E_CONFIG', 2],
    ['WorldNotFoundError', new WorldNotFoundError('no world', { hint: 'list', cause }), 'E_WORLD', 2],
    ['LogFormatError', new LogFormatError('torn', { line: 3 }, { hint: 'rerun', cause }), 'E_LOG', 2],
    ['DivergenceError', new DivergenceError('differs', { seq: 9 }, { hint: 'diff', cause }), 'E_DIVERGED', 1],
    ['RunError', new RunError('policy threw', { hint: 'see cause', cause }), 'E_RUN', 1],
  ];

  it.each(cases)('%s carries its code, exit code, hint, name and cause', (name, err, code, exitCode) => {
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(GrapevineError);
    expect(isGrapevineError(err)).toBe(true);
    expect(err.code).toBe(code);
    expect(err.exitCode).toBe(exitCode);
    expect(err.hint.length).toBeGreaterThan(0);
    expect(err.name).toBe(name);
    expect(err.cause).toBe(cause);
    expect(err.stack).toContain(name);
  });

  it('keeps the log position of log and divergence errors', () => {
    expect(new LogFormatError('x', { line: 3, seq: 2, tick: 1 }).position).toEqual({
      line: 3,
      seq: 2,
      tick: 1,
    });
    expect(new LogFormatError('x').position).toEqual({});
    expect(new DivergenceError('x', { seq: 9 }).position).toEqual({ seq: 9 });
  });

  it('defaults to an empty hint, no cause, exit code 2', () => {
    const err = new GrapevineError('E_X', 'msg');
    expect(err.hint).toBe('');
    expect(err.exitCode).toBe(2);
    expect('cause' in err).toBe(false);
    expect(new RunError('m').hint).toBe('');
    expect(new RunError('m').message).toBe('m');
  });

  it('is not confused with plain errors', () => {
    expect(isGrapevineError(new Error('x'))).toBe(false);
    expect(isGrapevineError({ code: 'E_RUN', exitCode: 1 })).toBe(false);
    expect(isGrapevineError(undefined)).toBe(false);
  });
});
