/**
 * Benchmark of `grapevine study sotopia`: episodes per minute, and the study's own overhead
 * beyond the time spent waiting for the LLM.
 *
 *   npx tsx bench/study-sotopia.ts [--scenarios all] [--pairs 1] [--modes agents,script,mindreaders]
 *     [--concurrency 4,16] [--latency-ms 50] [--max-turns 20] [--seed 1] [--server child|in-process]
 *
 * For each concurrency K, a fresh study (bench/out/study-sotopia-k<K>/) runs through the same
 * API as the CLI (`planStudy`, `openSharedLlm`, `runStudy`, `writeStudyOutputs`) against the
 * shipped local server answering every chat completion after `--latency-ms` (default: in a
 * child process, `grapevine serve-llm`, so that this process's CPU time is the study's own).
 * Then the resume check alone (every log complete: each is read and verified, nothing runs)
 * and the report are timed. Every K must write the same report.json (the study is
 * deterministic whatever the scheduling). See bench/README.md for the figures.
 */

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openSharedLlm, resolveLlmConfig, startLocalLlmServer } from '../src/public/llm.ts';
import { sotopiaScriptResponder } from '../worlds/sotopia/llm-responder.ts';
import { writeStudyOutputs } from '../worlds/sotopia/study/outputs.ts';
import { planStudy, resolveStudyConfig } from '../worlds/sotopia/study/plan.ts';
import { runStudy, type StudyRunResult } from '../worlds/sotopia/study/runner.ts';
import { startChildLlmServer } from './tools/child-llm-server.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');

interface Args {
  scenarios: string;
  pairs: number;
  modes: string;
  concurrency: number[];
  latencyMs: number;
  maxTurns: number;
  seed: number;
  server: 'child' | 'in-process';
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      scenarios: { type: 'string', default: 'all' },
      pairs: { type: 'string', default: '1' },
      modes: { type: 'string', default: 'agents,script,mindreaders' },
      concurrency: { type: 'string', default: '4,16' },
      'latency-ms': { type: 'string', default: '50' },
      'max-turns': { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      server: { type: 'string', default: 'child' },
    },
  });
  const server = values.server;
  if (server !== 'child' && server !== 'in-process')
    throw new Error(`--server must be child or in-process, got ${server}`);
  const concurrency = values.concurrency.split(',').map(Number);
  if (concurrency.some((k) => !Number.isInteger(k) || k < 1))
    throw new Error(`--concurrency must be positive integers, got ${values.concurrency}`);
  return {
    scenarios: values.scenarios,
    pairs: Number(values.pairs),
    modes: values.modes,
    concurrency,
    latencyMs: Number(values['latency-ms']),
    maxTurns: Number(values['max-turns']),
    seed: Number(values.seed),
    server,
  };
}

interface ServerHandle {
  url: string;
  stop(): Promise<void>;
}

async function inProcessServer(latencyMs: number): Promise<ServerHandle> {
  const server = await startLocalLlmServer({ port: 0, latencyMs, responders: [sotopiaScriptResponder] });
  return { url: server.url, stop: () => server.close() };
}

/** `grapevine serve-llm` in its own process. */
const childServer = (latencyMs: number): Promise<ServerHandle> => startChildLlmServer(latencyMs);

/** Figures of one study run at concurrency K. */
interface Row {
  concurrency: number;
  episodes: number;
  calls: number;
  wallS: number;
  episodesPerMin: number;
  /** Σ per-episode LLM time (client-side latency of every call, sequential within an episode). */
  llmS: number;
  /** Σ LLM time / K: the wall time if K episodes always waited on the LLM and nothing else. */
  idealS: number;
  /** wall − ideal: the study's own time (engine, world set-up, logs, scheduling tail). */
  overheadS: number;
  overheadShare: number;
  /** calls × server latency / K: the wall time if only the server's fixed latency counted. */
  floorS: number;
  /** wall − floor: everything but the server's latency (HTTP client and event-loop waits included). */
  overFloorS: number;
  /** Mean per episode of (episode wall − its LLM time): its own non-LLM time, waits for the event loop included. */
  nonLlmPerEpisodeMs: number;
  /** Client-side latency per call above the server's fixed latency (HTTP, JSON, LangChain). */
  httpPerCallMs: number;
  /** CPU time (user + system) of this process over the run. */
  cpuS: number;
  cpuPerEpisodeMs: number;
  /** Resume check with every log complete (read + verify each, run nothing). */
  resumeCheckS: number;
  /** Reading every log's summary and writing report.* and card.*. */
  reportS: number;
  reportSha: string;
}

async function runOnce(a: Args, url: string, k: number): Promise<Row> {
  const { config, data } = resolveStudyConfig({
    modes: a.modes,
    scenarios: a.scenarios,
    pairs: a.pairs,
    seed: a.seed,
    maxTurns: a.maxTurns,
    model: 'grapevine-local',
  });
  const plan = planStudy(config, data);
  const dir = join(OUT, `study-sotopia-k${k}`);
  rmSync(dir, { recursive: true, force: true });
  const llm = await openSharedLlm(
    resolveLlmConfig({ flags: { llmBaseUrl: url, model: 'grapevine-local' }, env: {} }),
  );
  let result: StudyRunResult;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let last = 0;
  try {
    result = await runStudy({
      dir,
      plan,
      llm,
      concurrency: k,
      onProgress: (done, total) => {
        if (done - last >= Math.max(1, Math.floor(total / 10)) || done === total) {
          last = done;
          process.stderr.write(
            `  k=${k}: ${done}/${total} episodes, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
          );
        }
      },
    });
  } finally {
    await llm.close();
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!result.complete) throw new Error(`study incomplete: ${JSON.stringify(result.failed)}`);
  const t1 = performance.now();
  const again = await runStudy({ dir, plan, llm, concurrency: k });
  const resumeMs = performance.now() - t1;
  if (again.skipped !== plan.episodes.length) throw new Error('resume check reran episodes');
  const t2 = performance.now();
  await writeStudyOutputs(dir, plan, data);
  const reportMs = performance.now() - t2;
  const { createHash } = await import('node:crypto');
  const reportSha = createHash('sha256')
    .update(readFileSync(join(dir, 'report.json')))
    .digest('hex');
  const n = result.timings.length;
  const calls = result.timings.reduce((s, t) => s + t.calls, 0);
  const llmMs = result.timings.reduce((s, t) => s + t.llmMs, 0);
  const nonLlm = result.timings.reduce((s, t) => s + (t.wallMs - t.llmMs), 0) / n;
  const idealMs = llmMs / k;
  return {
    concurrency: k,
    episodes: n,
    calls,
    wallS: wallMs / 1000,
    episodesPerMin: (n / wallMs) * 60_000,
    llmS: llmMs / 1000,
    idealS: idealMs / 1000,
    overheadS: (wallMs - idealMs) / 1000,
    overheadShare: (wallMs - idealMs) / wallMs,
    floorS: (calls * a.latencyMs) / k / 1000,
    overFloorS: (wallMs - (calls * a.latencyMs) / k) / 1000,
    nonLlmPerEpisodeMs: nonLlm,
    httpPerCallMs: (llmMs - calls * a.latencyMs) / calls,
    cpuS: (cpu.user + cpu.system) / 1e6,
    cpuPerEpisodeMs: (cpu.user + cpu.system) / 1000 / n,
    resumeCheckS: resumeMs / 1000,
    reportS: reportMs / 1000,
    reportSha,
  };
}

async function main(): Promise<void> {
  const a = parse();
  const server = a.server === 'child' ? await childServer(a.latencyMs) : await inProcessServer(a.latencyMs);
  const rows: Row[] = [];
  try {
    for (const k of a.concurrency) {
      process.stderr.write(`study at concurrency ${k} (latency ${a.latencyMs} ms, ${a.server} server)\n`);
      rows.push(await runOnce(a, server.url, k));
    }
  } finally {
    await server.stop();
  }
  const f = (x: number, d = 2) => x.toFixed(d);
  console.log(
    `\n${rows[0].episodes} episodes (${a.scenarios} x ${a.pairs} pair x ${a.modes}), max ${a.maxTurns} turns, ${a.latencyMs} ms per reply, ${a.server} server\n`,
  );
  console.log(
    '| K | episodes | calls | wall s | episodes/min | Σ LLM s | ideal s (Σ LLM / K) | overhead s (share) | floor s (calls x latency / K) | wall - floor s | non-LLM ms/episode | HTTP ms/call | CPU s | CPU ms/episode | resume check s | report s |',
  );
  console.log(
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of rows)
    console.log(
      `| ${r.concurrency} | ${r.episodes} | ${r.calls} | ${f(r.wallS)} | ${f(r.episodesPerMin, 1)} | ${f(r.llmS)} | ${f(r.idealS)} | ${f(r.overheadS)} (${f(100 * r.overheadShare, 1)}%) | ${f(r.floorS)} | ${f(r.overFloorS)} | ${f(r.nonLlmPerEpisodeMs, 1)} | ${f(r.httpPerCallMs, 2)} | ${f(r.cpuS)} | ${f(r.cpuPerEpisodeMs, 1)} | ${f(r.resumeCheckS)} | ${f(r.reportS)} |`,
    );
  const same = new Set(rows.map((r) => r.reportSha)).size === 1;
  console.log(
    `\nreport.json identical across concurrency: ${same ? 'yes' : 'NO'} (sha256 ${rows[0].reportSha.slice(0, 16)})`,
  );
  writeFileSync(
    join(OUT, 'study-sotopia.json'),
    `${JSON.stringify({ args: a, rows, sameReport: same }, null, 2)}\n`,
  );
  if (!same) process.exitCode = 1;
}

await main();
