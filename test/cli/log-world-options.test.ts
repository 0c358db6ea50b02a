// The commands that read a log take the same options telling where its world, network file
// and other input files are (src/cli/log-world-options.ts), declared once: no command spells them its own way.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addLogWorldOptions } from '../../src/cli/log-world-options.ts';
import { program } from '../../src/cli/main.ts';

const shared = addLogWorldOptions(new Command('x')).options.map((o) => [o.long, o.description]);

describe('the log world options', () => {
  const commands = program(() => {}).commands;

  it('are the options of every command that reads a log, and of no other', () => {
    const reading = commands.filter((c) => c.registeredArguments.some((a) => a.name() === 'log'));
    expect(reading.map((c) => c.name()).sort()).toEqual(
      ['audit', 'export', 'fork', 'inspect', 'replay', 'report', 'resume', 'view'].sort(),
    );
    for (const c of commands) {
      const own = c.options.filter((o) => ['--world', '--network-file', '--input'].includes(o.long ?? ''));
      // the block also carries --no-check (skip the world file's type check)
      const block = c.options.filter((o) => shared.some(([long]) => long === o.long));
      if (reading.includes(c))
        expect(
          block.map((o) => [o.long, o.description]),
          c.name(),
        ).toEqual(shared);
      // another command may take a world file for another purpose (serve-llm: its responders),
      // but never the log's network file, nor the log options' wording
      else
        for (const o of own) {
          expect(o.long, c.name()).toBe('--world');
          expect(shared, c.name()).not.toContainEqual([o.long, o.description]);
        }
    }
  });
});
