import { Command, CommanderError, Option } from 'commander';
import { ENGINE_VERSION } from '../world/index.ts';
import { inspectCommand } from './commands/inspect.ts';
import { replayCommand } from './commands/replay.ts';
import { runCommand } from './commands/run.ts';
import { worldsCommand } from './commands/worlds.ts';
import { reportError } from './report-error.ts';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function program(setExit: (code: number) => void): Command {
  const cli = new Command('grapevine')
    .description('deterministic, replayable simulation of how information spreads among rule and LLM agents')
    .version(ENGINE_VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  cli
    .command('worlds')
    .description('list the built-in worlds with their parameters and defaults')
    .option('--json', 'print JSON')
    .action((o) => setExit(worldsCommand(o)));
  cli
    .command('run')
    .description('run a world (a built-in id or a .ts/.js world file) and write its replay log')
    .argument('<world>', 'world id or path to a world file')
    .option('--seed <n>', 'run seed (default 1)')
    .option('--set <key=value>', 'set a world parameter (repeatable)', collect)
    .option('--config <file.json>', 'parameters from a JSON file')
    .option('--ticks <n>', 'maximum ticks')
    .option('--out <path>', 'log path (.ndjson or .ndjson.gz)')
    .addOption(new Option('--log <level>', 'log detail').choices(['minimal', 'full']).default('minimal'))
    .option('--json', 'print a one-object JSON summary on stdout')
    .option('--quiet', 'no progress bar, no summary')
    .option('--force', 'overwrite an existing --out file')
    .action(async (world, o) => setExit(await runCommand(world, o)));
  cli
    .command('replay')
    .description('rerun a log and check that it reproduces it exactly')
    .argument('<log>', 'replay log')
    .option('--verify', 'compare the rerun with the log line by line')
    .option('--json', 'print JSON')
    .option('--quiet', 'no output on success')
    .action(async (log, o) => setExit(await replayCommand(log, o)));
  cli
    .command('inspect')
    .description('what an agent had observed and which state it was in at a tick')
    .argument('<log>', 'replay log')
    .option('--agent <id>', 'agent index')
    .option('--at <tick>', 'tick (default: the last)')
    .option('--json', 'print JSON')
    .action(async (log, o) => setExit(await inspectCommand(log, o)));
  return cli;
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  try {
    await program((c) => {
      code = c;
    }).parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0)
        return 0;
      process.stderr.write('hint: see grapevine --help\n');
      return 2;
    }
    return reportError(err);
  }
}
