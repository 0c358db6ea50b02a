import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { program } from '../../src/cli/main.ts';
import { hasStack } from '../support/cli.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * Every option of every command, read from the commander definitions (so a new option is
 * covered, or this test fails until it is classified), started with an invalid value:
 * exit 2, one error line and a hint, no stack trace, no file left behind. Each case has the
 * outputs of its otherwise valid arguments in a folder of its own.
 *
 * The cases run the CLI in this process (support/cli-in-process.ts), one after the other: a CLI
 * process per case cost ~0.3 CPU-s of start-up for what is an option check. A command that
 * hangs instead of refusing fails by the test's timeout; one that refuses but leaves a
 * server, socket, child, worker or timer open (which would keep a real process alive after
 * its error line) fails on `leaked`. The real process's exit code and
 * error line for bad input are covered by the subprocess tests of cli.test.ts and
 * reliability.test.ts.
 */
const dir = tempDir();
const base = join(dir, 'base.ndjson');
const notAFile = join(dir, 'missing', 'nothing.json');

/** Options owned by other work: the LLM flags (issue 15, item 9), serve-llm and study (their own suites). */
function ownedElsewhere(path: string, o: Option): boolean {
  if (path.startsWith('serve-llm') || path.startsWith('study')) return true;
  return /^--(llm-|budget-|model$)/.test(o.long ?? '');
}

/** An invalid value for an option, by its value placeholder. */
function invalidValue(o: Option): string | undefined {
  if (!o.required && !o.optional) return undefined; // a boolean flag takes no value
  if (o.argChoices) return 'bogus';
  const arg = /<([^>]+)>/.exec(o.flags)?.[1] ?? '';
  if (['n', 'tick', 'id', 'x', 'share'].includes(arg)) return '1.5x';
  if (arg === 'key=value' || arg === 'key=v1,v2' || arg === 'key=factor' || arg === 'param=file')
    return 'novalue';
  if (arg === 'folder') return join(base, 'under-a-file');
  if (arg === 'url') return 'http://not-nats';
  if (['table', 'fmt', 'case'].includes(arg)) return 'bogus';
  if (arg === 'path') return join(base, 'under-a-file.ndjson');
  if (['file', 'dir'].includes(arg)) return notAFile;
  if (arg === 'file.json') return join(base, 'under-a-file.json');
  if (arg === 'name') return ''; // --embedding-model: an empty model name
  throw new Error(`option ${o.flags}: no invalid value known for <${arg}>; classify it in this test`);
}

/** The arguments that make a command otherwise valid; their outputs go to `outDir` (one folder per case). */
function validArgs(path: string, outDir: string): string[] {
  const args: Record<string, string[]> = {
    worlds: [],
    run: ['rumor', '--set', 'n=50', '--ticks', '2', '--out', join(outDir, 'run-out.ndjson')],
    fork: [base, '--at', '1', '--out', join(outDir, 'fork-out.ndjson')],
    flatten: [base, '--out', join(outDir, 'flatten-out.ndjson')],
    resume: [base],
    diff: [base, base],
    replay: [base, '--verify'],
    inspect: [base],
    audit: [base],
    report: [base, '--out', join(outDir, 'report-out.html')],
    // every option is checked before the log is read or a port opened
    view: [base, '--port', '0'],
    sweep: ['rumor', '--set', 'n=50', '--ticks', '2', '--out', join(outDir, 'sweep-out')],
    worker: ['--queue', 'nats://127.0.0.1:9', '--logs', join(outDir, 'worker-logs')],
    export: [base, '--what', 'metrics', '--format', 'csv', '--out', join(outDir, 'export-out.csv')],
    // a case that does not exist: every flag is checked before the (long) battery would run
    validate: ['--only', 'sir-well-mixed-r0-0.5'],
    compare: [join(dir, 'answers.csv'), '--human', join(dir, 'human.csv')],
    sensitivity: ['rumor', '--factor', 'n=20,30', '--replicates', '1', '--ticks', '2'],
  };
  const a = args[path];
  if (!a) throw new Error(`command ${path}: no valid arguments known; add them to this test`);
  return a;
}

function cases(): [string, string, string[], string][] {
  const out: [string, string, string[], string][] = [];
  const walk = (c: Command, prefix: string[]) => {
    for (const sub of c.commands) {
      const path = [...prefix, sub.name()];
      const name = path.join(' ');
      walk(sub, path);
      for (const o of sub.options) {
        if (ownedElsewhere(name, o)) continue;
        const value = invalidValue(o);
        if (value === undefined) continue;
        const own = join(dir, `case-${out.length}`);
        mkdirSync(own);
        const args = validArgs(name, own).filter((_, k, all) => all[k] !== o.long && all[k - 1] !== o.long);
        out.push([name, o.long!, [...path, ...args, o.long!, value], own]);
      }
    }
  };
  walk(
    program(() => {}),
    [],
  );
  return out;
}

beforeAll(async () => {
  const r = await cliInProcess(['run', 'rumor', '--set', 'n=100', '--out', base, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  writeFileSync(join(dir, 'keep'), '');
  writeFileSync(join(dir, 'answers.csv'), 'agent,item,kind,answer\na1,q,choice,yes\n');
  writeFileSync(join(dir, 'human.csv'), 'item,group,option,count,source\nq,all,yes,3,x\nq,all,no,1,x\n');
}, 120_000);

describe('every option with an invalid value', () => {
  const all = cases();
  it('covers the options of every command', () => {
    expect(new Set(all.map((c) => c[0]))).toEqual(
      new Set([
        'run',
        'fork',
        'flatten',
        'resume',
        'replay',
        'inspect',
        'audit',
        'report',
        'view',
        'export',
        'validate',
        'sweep',
        'worker',
        'compare',
        'sensitivity',
      ]),
    );
  });

  it.each(all)(
    '%s %s',
    async (_name, _option, args, own) => {
      const before = readdirSync(dir).sort();
      const r = await cliInProcess(args);
      expect(r.code, r.stderr).toBe(2);
      expect(hasStack(r.stderr)).toBe(false);
      expect(r.stderr).toMatch(/^(grapevine: |error: )/);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(readdirSync(own)).toEqual([]);
      expect(readdirSync(dir).sort()).toEqual(before);
      // nothing left open that would keep a real process alive after its error line
      expect(r.leaked).toEqual([]);
    },
    60_000,
  );
});
