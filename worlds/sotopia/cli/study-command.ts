import { join } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../../src/index.ts';
import { checkEmbeddingFlags, embeddingConfigOf } from '../../../src/public/analysis.ts';
import {
  type CliIo,
  type CommandOutput,
  describeCounters,
  PROCESS_OUTPUT,
  Progress,
  positiveIntFlag,
} from '../../../src/public/cli.ts';
import {
  type LlmFlags,
  type LocalEndpointStarter,
  openSharedLlm,
  resolveLlmConfig,
  withServerModel,
} from '../../../src/public/llm.ts';
import { importSotopia } from '../importer.ts';
import { parseModeFromTag, writeReanalysis } from '../study/from-episodes.ts';
import { writeStudyOutputs } from '../study/outputs.ts';
import { planStudy, resolveStudyConfig, type StudyInput } from '../study/plan.ts';
import { checkStudyDir, DEFAULT_STUDY_CONCURRENCY, runStudy, savedStudyConfig } from '../study/runner.ts';

/** The LLM flags of `grapevine study` (those of `run` but the budget and the cache). */
export type StudyLlmFlags = Pick<
  LlmFlags,
  'llmBaseUrl' | 'model' | 'llmConcurrency' | 'llmRpm' | 'llmTpm' | 'llmTimeoutMs' | 'llmAttempts'
>;

/** Options of `grapevine study sotopia` as commander camel-cases them (the plan's, as strings, and the command's own). */
export interface StudySotopiaOptions
  extends StudyLlmFlags,
    Omit<StudyInput, 'model' | 'pairs' | 'seed' | 'maxTurns'> {
  out?: string;
  pairs?: string;
  seed?: string;
  maxTurns?: string;
  concurrency?: string;
  maxEpisodes?: string;
  json?: boolean;
  quiet?: boolean;
  fromEpisodes?: string;
  modeFromTag?: string;
  embeddingModel?: string;
  embeddingBaseUrl?: string;
}

/**
 * `grapevine study sotopia`: every (scenario, pair, mode) as its own replayable episode,
 * run a few at a time through one shared LLM; resumable; then report.{json,md,html} and
 * card.{json,md}. Every input is checked before anything is written (exit 2). Exit 1 if
 * an episode failed (rerun the same command to retry it), else 0. Without an endpoint the
 * episodes run on the local server `localServer` starts (the CLI's shipped one).
 */
export async function studySotopiaCommand(
  opts: StudySotopiaOptions,
  io: CommandOutput = PROCESS_OUTPUT,
  env: Record<string, string | undefined> = process.env,
  localServer?: LocalEndpointStarter,
): Promise<number> {
  if (opts.fromEpisodes !== undefined) return reanalyseCommand(opts, opts.fromEpisodes, io);
  if (opts.modeFromTag !== undefined) throw new UsageError('--mode-from-tag needs --from-episodes');
  checkEmbeddingFlags(opts.embeddingModel, opts.embeddingBaseUrl);
  if (!opts.out)
    throw new UsageError('study sotopia needs --out DIR', { hint: 'the directory of the study' });
  const named = resolveLlmConfig({ flags: opts, env });
  // a study being continued keeps its own reply contract unless --contract says otherwise
  // (and then checkStudyDir refuses to mix contracts in one directory)
  const saved = savedStudyConfig(opts.out);
  const contract = opts.contract ?? (typeof saved?.contract === 'string' ? saved.contract : undefined);
  const concurrency = positiveIntFlag('concurrency', opts.concurrency) ?? DEFAULT_STUDY_CONCURRENCY;
  const maxEpisodes = positiveIntFlag('max-episodes', opts.maxEpisodes);
  // the study's own options are checked before a server is asked for its model (--model unnamed)
  if (named.modelFrom === 'listed') resolveStudyConfig({ ...opts, contract, model: 'model-to-be-listed' });
  const target = await withServerModel(named);
  const { config, data } = resolveStudyConfig({ ...opts, contract, model: target.model });
  const plan = planStudy(config, data);
  checkStudyDir(opts.out, config);
  const llm = await openSharedLlm(target, { localServer });
  const progress = new Progress('study sotopia', Boolean(opts.quiet) || Boolean(opts.json), {
    unit: 'episode',
    eta: true,
  });
  const started = performance.now(); // wall-clock-ok: study timing, printed only
  const result = await runStudy({
    dir: opts.out,
    plan,
    llm,
    concurrency,
    maxEpisodes,
    onProgress: (done, total) => progress.tick(done, total),
  }).finally(async () => {
    progress.stop();
    await llm.close();
  });
  const wallMs = performance.now() - started; // wall-clock-ok: study timing
  const embedding =
    opts.embeddingModel === undefined
      ? undefined
      : {
          config: embeddingConfigOf(opts.embeddingModel, opts.embeddingBaseUrl, env),
          store: join(opts.out, 'embeddings.json'),
        };
  const outputs = result.complete ? await writeStudyOutputs(opts.out, plan, data, embedding) : undefined;
  const counters = {
    ...llm.counters,
    fallbacks: result.fallbacks,
    costUsd: Number(llm.counters.costUsd.toFixed(6)),
  };
  const overall = outputs?.report.modes.map((m) => ({
    mode: m.mode,
    mean: m.dimensions.overall.mean,
    se: m.dimensions.overall.se,
    n: m.dimensions.overall.n,
  }));
  const { timings: _t, ...counts } = result;
  if (opts.json) {
    io.out(
      `${JSON.stringify({
        out: opts.out,
        ...counts,
        files: outputs?.files ?? [],
        overall: overall ?? null,
        wallMs: Math.round(wallMs),
        llmEndpoint: llm.endpoint,
        llm: counters,
      })}\n`,
    );
  } else if (!opts.quiet) {
    io.out(
      `study sotopia: ${result.total} episodes (${result.ran} run now, ${result.skipped} already done, ${result.discarded} partial logs rerun${result.failed.length ? `, ${result.failed.length} failed` : ''}${result.remaining ? `, ${result.remaining} not started` : ''}) in ${(wallMs / 1000).toFixed(2)} s, ${concurrency} at a time\n` +
        `llm ${describeCounters(counters)} via ${llm.endpoint}\n`,
    );
    if (overall)
      io.out(
        `overall ${overall.map((o) => `${o.mode} ${o.mean === null ? '—' : o.mean.toFixed(2)}${o.se === null ? '' : ` ± ${o.se.toFixed(2)}`} (n=${o.n})`).join(', ')}\n` +
          `wrote ${outputs!.files.join(', ')}\n`,
      );
  }
  if (result.failed.length > 0) {
    for (const f of result.failed) io.err(`grapevine: episode ${f.log} failed: ${f.error}\n`);
    io.err('hint: rerun the same command to retry them (finished episodes are kept)\n');
    return 1;
  }
  if (!result.complete && !opts.json && !opts.quiet)
    io.out(
      `${result.total - result.remaining} of ${result.total} episodes done; rerun the same command to continue\n`,
    );
  return 0;
}

/** `study sotopia --from-episodes PATH [--out DIR]`: the report of recorded Sotopia EpisodeLogs. */
function reanalyseCommand(opts: StudySotopiaOptions, path: string, io: CommandOutput): number {
  const rules = opts.modeFromTag === undefined ? [] : parseModeFromTag(opts.modeFromTag);
  const data = importSotopia(opts.data);
  const out = opts.out ?? 'sotopia-reanalysis';
  const { report, files } = writeReanalysis(path, out, { rules, environments: data.environments });
  const overall = report.modes.map((m) => ({ mode: m.mode, ...m.dimensions.overall }));
  if (opts.json)
    io.out(
      `${JSON.stringify({ out, episodes: report.study.episodes, scored: report.study.scored, files, overall })}\n`,
    );
  else if (!opts.quiet)
    io.out(
      `study sotopia --from-episodes: ${report.study.episodes} episodes, ${report.study.scenarioCount} scenarios, modes ${report.study.modes.join(', ')}\n` +
        `overall ${overall.map((o) => `${o.mode} ${o.mean === null ? '—' : o.mean.toFixed(2)} (n=${o.n})`).join(', ')}\n` +
        `wrote ${files.join(', ')}\n`,
    );
  return 0;
}

/** Registers `grapevine study sotopia` on the CLI (the Sotopia contribution's `register` calls it). */
export function addStudyCommand(cli: Command, io: CliIo): Command {
  const study = cli.command('study').description('run a study: many replayable episodes, one report');
  study
    .command('sotopia')
    .description(
      'information-asymmetry study (Zhou et al. 2024): every (scenario, pair, mode) as its own replayable episode, then a report and a simulation card; rerun to resume',
    )
    .option('--out <dir>', 'study directory: episodes/, report.{md,json,html}, card.{md,json}, study.json')
    .option(
      '--modes <list>',
      'comma list of agents, mindreaders, script, playwright (default agents,mindreaders,script)',
    )
    .option('--scenarios <list>', 'all, or comma list of codenames, env_ids, source:<source> (default all)')
    .option('--pairs <n>', 'character pairs per scenario, 1..5 (default 1)')
    .option('--seed <n>', 'study seed; episode seeds derive from it and (scenario, pair) (default 1)')
    .option('--max-turns <n>', 'turns per episode at most (default 20)')
    .option(
      '--judge-model <name>',
      "the judge's model (required; `same` judges with the agents' model, which Zhou et al. did not do)",
    )
    .option(
      '--protocol <name>',
      'zhou2024 (default: Zhou et al. 2024) or grapevine-v0 (the first grapevine protocol)',
    )
    .option('--rubric <name>', "the judge's rubric: basic (default) or plus (Sotopia's scoring bands)")
    .option(
      '--parsing <way>',
      "zhou2024: sotopia (default: Sotopia's reply formats, one repair call) or reask (JSON everywhere, re-asked twice)",
    )
    .option(
      '--repair-model <name>',
      "parsing sotopia: the repair call's model (default: the model of the call repaired; Sotopia used gpt-3.5-turbo)",
    )
    .option(
      '--contract <name>',
      "zhou2024: the reply contract: sotopia (default: Sotopia's fields) or grapevine (world 2.0-2.1's); a study being continued keeps its own",
    )
    .option('--models <a,b>', 'two models in the two seats, every (scenario, pair) run in both seatings')
    .option(
      '--templates <dir>',
      "a template pack replacing the shipped one's files (the project's words); `grapevine sotopia templates` makes one of Sotopia's own words",
    )
    .option('--data <dir>', 'another copy of the Sotopia profiles (default: the shipped one)')
    .option(
      '--from-episodes <path>',
      'reanalyse recorded Sotopia EpisodeLog JSON (object, array or JSON Lines; a file or a directory): writes report.{md,json,html} into --out (default sotopia-reanalysis), runs nothing',
    )
    .option(
      '--mode-from-tag <rules>',
      'with --from-episodes: PATTERN=MODE,... (PATTERN a regular expression searched in the tag, first match wins; default: the tag is the mode)',
    )
    .option(
      '--embedding-model <name>',
      "card: add each mode's mean pairwise embedding distance with a 95% CI (vectors cached in <out>/embeddings.json)",
    )
    .option('--embedding-base-url <url>', 'OpenAI-compatible /v1/embeddings endpoint (default OpenAI’s)')
    .option('--concurrency <n>', `episodes run at once (default ${DEFAULT_STUDY_CONCURRENCY})`)
    .option('--max-episodes <n>', 'start at most N episodes now, then stop (rerun to continue)')
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint (env OPENAI_BASE_URL; default: the shipped local server)',
    )
    .option('--model <name>', "the characters' model (env GRAPEVINE_MODEL)")
    .option('--llm-concurrency <n>', 'LLM calls in flight at most, over all episodes (default 16)')
    .option('--llm-rpm <n>', 'requests per minute limit, over all episodes')
    .option('--llm-tpm <n>', 'tokens per minute limit, over all episodes')
    .option('--llm-timeout-ms <n>', 'timeout of one LLM call')
    .option('--llm-attempts <n>', 'attempts per LLM call, first try included (default 6)')
    .option('--json', 'print a one-object JSON summary on stdout')
    .option('--quiet', 'no progress bar, no summary')
    .action(async (o) =>
      io.setExit(await studySotopiaCommand(o, PROCESS_OUTPUT, process.env, io.startLocalLlm)),
    );
  return study;
}
