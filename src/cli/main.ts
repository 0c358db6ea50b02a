import { Command, CommanderError, Option } from 'commander';
import { ENGINE_VERSION } from '../world/index.ts';
import { auditCommand } from './commands/audit.ts';
import { diffCommand } from './commands/diff.ts';
import { exportCommand } from './commands/export.ts';
import { forkCommand } from './commands/fork.ts';
import { inspectCommand } from './commands/inspect.ts';
import { replayCommand } from './commands/replay.ts';
import { reportCommand } from './commands/report.ts';
import { resumeCommand } from './commands/resume.ts';
import { runCommand } from './commands/run.ts';
import { serveLlmCommand } from './commands/serve-llm.ts';
import { sotopiaImportCommand } from './commands/sotopia.ts';
import { addStudyCommand } from './commands/study.ts';
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
    .option('--snapshot-every <n>', 'write a full state snapshot every N ticks (always one at the end)')
    .option('--report', 'also write the HTML report beside the log and print where it is')
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint (env OPENAI_BASE_URL; default: the shipped local server)',
    )
    .option('--model <name>', 'model name (env GRAPEVINE_MODEL)')
    .option('--llm-concurrency <n>', 'LLM calls in flight at most (default 16)')
    .option('--llm-rpm <n>', 'requests per minute limit')
    .option('--llm-tpm <n>', 'tokens per minute limit')
    .option('--llm-timeout-ms <n>', 'timeout of one LLM call')
    .option('--llm-attempts <n>', 'attempts per LLM call, first try included (default 6)')
    .option('--budget-tokens <n>', 'stop at a tick boundary once this many tokens are spent')
    .option('--budget-usd <x>', 'stop at a tick boundary once this much money is spent')
    .option('--llm-cache <dir>', 'reuse replies from an on-disk cache (keyed by model, parameters, messages)')
    .action(async (world, o) => setExit(await runCommand(world, o)));
  cli
    .command('fork')
    .description('rewind a run to a tick, change something, and run on (a "what if")')
    .argument('<log>', 'parent log')
    .option('--at <tick>', 'fork after this tick')
    .option('--intervene <file>', 'interventions (JSON or YAML), repeatable', collect)
    .option('--set <key=value>', 'change a world parameter at the fork, repeatable', collect)
    .option('--seed <n>', 'reseed the future (same past, another random future)')
    .option('--replicates <n>', 'write N treated and N control children with different future seeds')
    .option('--out <path>', 'child log (or directory with --replicates)')
    .option('--force', 'overwrite existing outputs')
    .option('--json', 'print JSON')
    .option('--quiet', 'no output on success')
    .option('--llm-base-url <url>', 'OpenAI-compatible endpoint for LLM calls after the fork tick')
    .option('--model <name>', 'model name')
    .action(async (log, o) => setExit(await forkCommand(log, o)));
  cli
    .command('resume')
    .description('continue an interrupted run from its last complete tick, appending to its log')
    .argument('<log>', 'log of the interrupted run')
    .option('--json', 'print JSON')
    .option('--quiet', 'no output on success')
    .option('--llm-base-url <url>', 'OpenAI-compatible endpoint for LLM calls after the fork tick')
    .option('--model <name>', 'model name')
    .action(async (log, o) => setExit(await resumeCommand(log, o)));
  cli
    .command('diff')
    .description('where two runs first differ, their metrics side by side, agents that end differently')
    .argument('<a>', 'a log, or a fork --replicates directory')
    .argument('[b]', 'another log')
    .option('--json', 'print JSON')
    .action(async (a, b, o) => setExit(await diffCommand(a, b, o)));
  cli
    .command('serve-llm')
    .description('serve the local OpenAI-compatible chat endpoint (deterministic replies, fault injection)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 = any free port)', '8787')
    .option('--model <name>', 'model name it reports')
    .option('--latency-ms <n>', 'fixed latency per reply')
    .option('--latency-jitter-ms <n>', 'extra uniform random latency')
    .option('--fault-rate <x>', 'share of requests that fail (0..1)')
    .option('--fault-kinds <list>', 'comma list of 429,500,timeout,malformed,drop')
    .option('--retry-after-seconds <x>', 'Retry-After sent with 429')
    .option('--seed <n>', 'seed of the fault and latency draws')
    .action(async (o) => setExit(await serveLlmCommand(o)));
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
  cli
    .command('audit')
    .description(
      "check every recorded prompt for other agents' private texts (goals, secrets, environment-only text)",
    )
    .argument('<log>', 'a --log full replay log, or a directory of them')
    .option('--json', 'print JSON')
    .action(async (log, o) => setExit(await auditCommand(log, o)));
  cli
    .command('report')
    .description(
      'one self-contained HTML page of plots and tables about a run (spread, cascades, asymmetry, LLM use)',
    )
    .argument('<log>', 'replay log')
    .option('--out <path>', 'HTML file (default: beside the log, <name>.report.html)')
    .option('--json', 'print the figures as JSON')
    .option('--quiet', 'no output on success')
    .action(async (log, o) => setExit(await reportCommand(log, o)));
  cli
    .command('export')
    .description('a tidy table of a run (metrics, agents, cascades or events) as CSV, Parquet or NDJSON')
    .argument('<log>', 'replay log')
    .option('--what <table>', 'metrics | agents | cascades | events')
    .option('--format <fmt>', 'csv | parquet | ndjson', 'csv')
    .option('--out <path>', 'output file (default: beside the log, <name>.<what>.<format>)')
    .option('--quiet', 'no output on success')
    .action(async (log, o) => setExit(await exportCommand(log, o)));
  const sotopia = cli.command('sotopia').description('the Sotopia profiles used by the sotopia world');
  sotopia
    .command('import')
    .description('read and validate the Sotopia files; print their counts and any bad row (file:line)')
    .option('--check', 'validate the files and print the counts')
    .option('--data <dir>', 'another copy of the Sotopia profiles (default: the shipped one)')
    .option('--json', 'print JSON')
    .action((o) => setExit(sotopiaImportCommand(o)));
  addStudyCommand(cli, setExit);
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
