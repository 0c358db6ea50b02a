import { Command, CommanderError, Option } from 'commander';
// core's files, not its index: the index brings seedrandom and node:crypto, which start-up does not need.
import { ENGINE_VERSION } from '../core/engine-version.ts';
import type { CliContribution } from './cli-contribution.ts';
import { addLlmOptions } from './llm-options.ts';
import { addLogWorldOptions } from './log-world-options.ts';
import { reportError } from './report-error.ts';
import { installWorlds } from './world-catalog.ts';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The CLI's commands (exported for tests that walk every option). */
export function program(
  setExit: (code: number) => void,
  contributions: readonly CliContribution[] = [],
): Command {
  const cli = new Command('grapevine')
    .description('deterministic, replayable simulation of how information spreads among rule and LLM agents')
    .version(ENGINE_VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  // Each command's module is imported when it runs: start-up (and --version) loads no engine.
  cli
    .command('worlds')
    .description('list the built-in worlds (or the worlds of the given files) with their parameters')
    .argument('[files...]', 'world files (.ts or .js) to list instead of the built-in worlds')
    .option('--json', 'print JSON')
    .option('--no-check', 'do not type-check the world files first')
    .action(async (files, o) =>
      setExit(await (await import('./commands/worlds.ts')).worldsCommand(files, o)),
    );
  cli
    .command('check')
    .description("type-check a world file against grapevine's public types and validate its world")
    .argument('<file>', 'world file (.ts or .js)')
    .option('--json', 'print JSON')
    .action(async (file, o) => setExit(await (await import('./commands/check.ts')).checkCommand(file, o)));
  addLlmOptions(
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
        '--executor <name>',
        "xstate | columnar: force the agents' executor (default: chosen for the world)",
      )
      .option('--no-check', 'do not type-check a world file first'),
    { budget: true, cache: true, fallbacks: true },
  ).action(async (world, o) => setExit(await (await import('./commands/run.ts')).runCommand(world, o)));
  addLlmOptions(
    addLogWorldOptions(
      cli
        .command('fork')
        .description('rewind a run to a tick, change something, and run on (a "what if")')
        .argument('<log>', 'parent log')
        .option('--at <tick>', 'fork after this tick (T1,T2,... for a batch)')
        .option('--intervene <file>', 'interventions (JSON or YAML), repeatable', collect)
        .option('--set <key=value>', 'change a world parameter at the fork, repeatable', collect)
        .option('--seed <n>', 'reseed the future (same past, another random future)')
        .option('--replicates <n>', 'write N treated and N control children with different future seeds')
        .option('--workers <n>', 'worker threads of a batch (default 1; worth it when children are long)')
        .option('--out <path>', 'child log (or directory with --replicates)')
        .option('--force', 'overwrite existing outputs')
        .option(
          '--standalone',
          'copy the shared past into each child (default: a delta child naming the parent)',
        )
        .option('--json', 'print JSON')
        .option('--quiet', 'no output on success'),
    ),
    { cache: true, purpose: 'for LLM calls after the fork tick' },
  ).action(async (log, o) => setExit(await (await import('./commands/fork.ts')).forkCommand(log, o)));
  addLlmOptions(
    addLogWorldOptions(
      cli
        .command('resume')
        .description('continue an interrupted run from its last complete tick, appending to its log')
        .argument('<log>', 'log of the interrupted run')
        .option('--json', 'print JSON')
        .option('--quiet', 'no output on success'),
    ),
    { cache: true, purpose: 'for LLM calls after the last complete tick' },
  ).action(async (log, o) => setExit(await (await import('./commands/resume.ts')).resumeCommand(log, o)));
  addLlmOptions(cli.command('sweep'), {
    budget: true,
    cache: true,
    purpose: 'for the runs of a world that needs an LLM',
  })
    .description(
      'run a grid (or Latin hypercube) of parameters × replicates on worker threads; tables and a report',
    )
    .argument('<world>', 'world id, world file, or sweep file (.yaml/.yml/.json)')
    .option('--grid <key=v1,v2>', 'values of a swept parameter, repeatable', collect)
    .option('--set <key=value>', 'a parameter every run gets, repeatable', collect)
    .option('--replicates <n>', 'runs per parameter point (default 1)')
    .option('--seed <n>', 'base seed S of the run seeds (default 1)')
    .option(
      '--shared-seeds',
      'replicate r of every point runs with the same seed (runs pair up across points)',
    )
    .option('--ticks <n>', 'maximum ticks of each run')
    .option('--out <folder>', 'sweep folder (logs, tables, report); a rerun resumes it')
    .option('--workers <n>', 'worker threads (default: the number of cores)')
    .option('--queue <url>', 'run on the workers of a NATS JetStream queue (nats://HOST:PORT)')
    .option('--json', 'print a one-object JSON summary')
    .option('--quiet', 'no progress bar, no summary')
    .option('--no-check', 'do not type-check a world file first')
    .action(async (w, o) =>
      setExit(await (await import('./commands/sweep.ts')).sweepCommand(w, o, contributions)),
    );
  addLlmOptions(cli.command('worker'), {
    budget: true,
    cache: true,
    purpose: 'for the runs of a world that needs an LLM',
  })
    .description('run the sweeps published on a NATS JetStream queue (docs/DISTRIBUTED.md) until stopped')
    .option('--queue <url>', 'nats://HOST:PORT')
    .option('--concurrency <n>', 'runs at once (default 1)')
    .option(
      '--logs <folder>',
      'where the run logs go: a folder (default ./sweep-logs), or nats-obj://BUCKET for an object store on the queue',
    )
    .option('--ack-wait <n>', 'seconds before an unacknowledged run is handed to another worker (default 30)')
    .option('--ack-wait-ms <n>', 'the same in milliseconds')
    .option(
      '--world <file>',
      'a world file this worker may run (repeatable; sha256 checked against each spec); built-in worlds need none',
      collect,
    )
    .option(
      '--input-file <file>',
      'a data file (network, table) the parameters of a spec may name (repeatable); no other file is opened',
      collect,
    )
    .option('--max-run-seconds <n>', 'wall-clock limit of each run (default 21600)')
    .option('--max-run-events <n>', 'most log lines a run may write (default 50000000)')
    .option('--quiet', 'no output')
    .action(async (o) =>
      setExit(await (await import('./commands/worker.ts')).workerCommand(o, contributions)),
    );
  cli
    .command('flatten')
    .description('turn a delta child (a fork naming its parent) into a self-contained log, same digest')
    .argument('<child>', 'delta child log')
    .option('--out <path>', 'write here instead of replacing the child')
    .option('--force', 'overwrite an existing --out')
    .option('--json', 'print JSON')
    .option('--quiet', 'no output on success')
    .action(async (log, o) => setExit(await (await import('./commands/flatten.ts')).flattenCommand(log, o)));
  cli
    .command('diff')
    .description('where two runs first differ, their metrics side by side, agents that end differently')
    .argument('<a>', 'a log, or a fork --replicates directory')
    .argument('[b]', 'another log')
    .option('--json', 'print JSON')
    .option('--welch', 'a batch: also the unpaired (Welch) interval beside the paired ones')
    .action(async (a, b, o) => setExit(await (await import('./commands/diff.ts')).diffCommand(a, b, o)));
  const serveLlm = cli
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
    .option('--fault-timeout-ms <n>', 'how long a timeout fault holds a request before dropping it', '1000')
    .option('--seed <n>', 'seed of the fault and latency draws (default 0)')
    .option('--no-logprobs', 'answer logprobs requests with logprobs: null (an endpoint without them)')
    .option('--world <file>', 'a world file whose exported responders answer its own prompts (asked first)')
    .action(async (o) => setExit(await (await import('./commands/serve-llm.ts')).serveLlmCommand(o)));
  // options that the contributions' responders read (e.g. the survey world's --synthetic)
  for (const c of contributions)
    for (const option of c.responders?.options ?? []) serveLlm.option(option.flags, option.description);
  addLogWorldOptions(
    cli
      .command('replay')
      .description('rerun a log and check that it reproduces it exactly')
      .argument('<log>', 'replay log')
      .option('--verify', 'compare the rerun with the log line by line')
      .option('--json', 'print JSON')
      .option('--quiet', 'no output on success'),
  ).action(async (log, o) => setExit(await (await import('./commands/replay.ts')).replayCommand(log, o)));
  addLogWorldOptions(
    cli
      .command('inspect')
      .description('what an agent had observed and which state it was in at a tick')
      .argument('<log>', 'replay log')
      .option('--agent <id>', 'agent index, a comma list, or all (with --json)')
      .option('--at <tick>', 'tick (default: the last)')
      .option('--json', 'print JSON'),
  ).action(async (log, o) => setExit(await (await import('./commands/inspect.ts')).inspectCommand(log, o)));
  addLogWorldOptions(
    cli
      .command('audit')
      .description(
        "check every recorded prompt for other agents' private texts (goals, secrets, environment-only text)",
      )
      .argument('<log>', 'a --log full replay log, or a directory of them')
      .option(
        '--partial <share>',
        'report a private text found in part: this share of its content words, in order (0 to 1, default 0.6; 0 turns it off)',
      )
      .option('--json', 'print JSON'),
  ).action(async (log, o) => setExit(await (await import('./commands/audit.ts')).auditCommand(log, o)));
  addLogWorldOptions(
    cli
      .command('report')
      .description(
        'one self-contained HTML page of plots and tables about a run (spread, cascades, asymmetry, LLM use)',
      )
      .argument('<log>', 'replay log, or a fork --replicates folder')
      .option('--out <path>', 'HTML file (default: beside the log, <name>.report.html)')
      .option('--force', 'replace an existing report file')
      .option('--json', 'print the figures as JSON')
      .option('--quiet', 'no output on success'),
  )
    .option('--embedding-model <name>', 'embed message texts for their mean pairwise cosine distance')
    .option('--embedding-base-url <url>', 'OpenAI-compatible /v1/embeddings endpoint of --embedding-model')
    .option('--welch', 'a fork batch folder: also the unpaired (Welch) interval beside the paired ones')
    .action(async (log, o) => setExit(await (await import('./commands/report.ts')).reportCommand(log, o)));
  addLogWorldOptions(
    cli
      .command('export')
      .description(
        'a tidy table of a run (metrics, agents, cascades or events), or of every run of a sweep or fork batch, as CSV, Parquet or NDJSON',
      )
      .argument('<log>', 'replay log, or a sweep folder or fork batch folder (one table of all its runs)')
      .option('--what <table>', 'metrics | agents | cascades | events')
      .option('--format <fmt>', 'csv | parquet | ndjson', 'csv')
      .option(
        '--out <path>',
        'output file, or - for standard output (default: beside the log, <name>.<what>.<format>)',
      )
      .option('--force', 'replace an existing output file')
      .option('--quiet', 'no output on success'),
  ).action(async (log, o) => setExit(await (await import('./commands/export.ts')).exportCommand(log, o)));
  addLogWorldOptions(
    cli
      .command('view')
      .description(
        'replay a run in the browser: network, curves, agents, who knows what (served on 127.0.0.1)',
      )
      .argument('<log>', 'replay log')
      .option('--port <n>', 'port (0 = any free port)', '8790')
      .option('--max-nodes <n>', 'most agents drawn (a sample of larger runs)', '2000')
      .option(
        '--layout <name>',
        'force | circle (default: a ring for lattices, ForceAtlas2 for other networks)',
      ),
  ).action(async (log, o) => setExit(await (await import('./commands/view.ts')).viewCommand(log, o)));
  cli
    .command('validate')
    .description(
      'run the classic models against their published results (docs/VALIDATION.md); exit 1 if any case fails',
    )
    .option('--quick', 'the quick battery (under a minute)')
    .option('--json', 'print JSON')
    .option('--out <file.json>', 'also write the JSON report to a file')
    .option('--force', 'replace an existing --out file')
    .option('--only <case>', 'run one case')
    .option('--seed <n>', 'base seed (default 1)')
    .option(
      '--perturb <key=factor>',
      'run the cases that read a model parameter with it multiplied by factor; exit 0 when every case that must detect it fails',
    )
    .option(
      '--world <file>',
      "run a world file's own cases (its validationCases export) instead of the built-in ones",
    )
    .option('--no-check', 'do not type-check the --world file first')
    .action(async (o) => {
      const builtin = async () =>
        (await Promise.all(contributions.map((c) => c.validationCases?.() ?? []))).flat();
      setExit(await (await import('./commands/validate.ts')).validateCommand(o, builtin));
    });
  cli
    .command('compare')
    .description('compare survey answers (a file, or a survey run) with human reference distributions')
    .argument('<answers>', 'answers file (.csv/.ndjson) or a survey log')
    .option('--human <file>', 'human reference distributions (.csv/.ndjson)')
    .option('--out <path>', 'also write an HTML report')
    .option('--force', 'replace an existing --out file')
    .option('--json', 'print JSON')
    .option('--seed <n>', 'seed of the bootstrap (default 1)')
    .option('--replicates <n>', 'bootstrap resamples (default 1000)')
    .addOption(
      new Option('--phase <phase>', 'which answers to compare').choices([
        'initial',
        'discussion',
        'pushback',
      ]),
    )
    .action(async (input, o) =>
      setExit(await (await import('./commands/compare.ts')).compareCommand(input, o, contributions)),
    );
  cli
    .command('sensitivity')
    .description("share of an outcome's variance due to each factor, seeds as the noise floor")
    .argument('<input>', 'world id or file, or a runs file (.csv/.ndjson) with --outcome')
    .option('--factor <key=value>', 'a world parameter and its levels, key=v1,v2 (repeatable)', collect)
    .option('--replicates <n>', 'seeds per combination (default 5)')
    .option('--seed <n>', 'first seed (default 1)')
    .option('--ticks <n>', 'maximum ticks per run')
    .option('--metric <id>', 'outcome metric (repeatable; default all)', collect)
    .option('--outcome <id>', 'outcome column of a runs file')
    .option('--json', 'print JSON')
    .option('--no-check', 'do not type-check a world file first')
    .action(async (input, o) =>
      setExit(await (await import('./commands/sensitivity.ts')).sensitivityCommand(input, o)),
    );
  return cli;
}

/**
 * True when a contribution's commands must be added for `argv`: one of them is called, or
 * the command is not the engine's (help, a typo: commander then lists every command).
 * `--version` and the engine's own commands load no contribution.
 */
function needsRegistering(cli: Command, c: CliContribution, argv: readonly string[]): boolean {
  const first = argv.find((a) => !a.startsWith('-'));
  if (first === undefined) return !argv.some((a) => a === '--version' || a === '-V');
  if (c.commands?.includes(first)) return true;
  return !cli.commands.some((cmd) => cmd.name() === first);
}

/**
 * Runs the CLI with `argv` (without node and script); resolves to the exit code.
 * `contributions` are the worlds and commands of the applications (bin/grapevine.mjs passes
 * the built-in ones from worlds/index.ts).
 */
export async function main(argv: string[], contributions: readonly CliContribution[] = []): Promise<number> {
  let code = 0;
  try {
    installWorlds(contributions);
    const setExit = (c: number) => {
      code = c;
    };
    const cli = program(setExit, contributions);
    const io = {
      setExit,
      startLocalLlm: async () => (await import('./local-llm.ts')).startShippedServer(),
    };
    for (const c of contributions) if (needsRegistering(cli, c, argv)) await c.register?.(cli, io);
    await cli.parseAsync(argv, { from: 'user' });
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
