/**
 * Survey at scale: R synthetic respondents × I items (default 500 × 20) against the shipped
 * local server in synthetic-respondents mode (`grapevine serve-llm --synthetic`, a child
 * process, so its CPU is not counted as the engine's), then a replay of the log. Prints the
 * wall time, the client's CPU per LLM call (engine, world and the HTTP client stack), and
 * the replay's CPU per call (engine and world alone, no network).
 *
 * Usage: node --import tsx bench/survey.ts [--agents 500] [--items 20] [--concurrency 64]
 *   [--elicitation sample|distribution|logprobs]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { openLiveLlm, resolveRunLlm } from '../src/cli/llm-session.ts';
import { replayServices } from '../src/cli/replay-services.ts';
import { RngStreams, runWorld } from '../src/index.ts';
import { InputBuffer } from '../src/public/llm.ts';
import { LogWriter, readRecordedRun, rerunLog } from '../src/replay/index.ts';
import { world } from '../worlds/survey/index.ts';
import { startChildLlmServer } from './tools/child-llm-server.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');
const DATA = join(HERE, '..', 'worlds', 'survey', 'data');

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '500' },
    items: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '64' },
    elicitation: { type: 'string', default: 'sample' },
  },
});
const agents = Number(values.agents);
const nItems = Number(values.items);
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** I Likert items (ids q1..qI) and a ground truth that plants the same shares for each. */
function writeInputs(): { items: string; truth: string } {
  mkdirSync(OUT, { recursive: true });
  const options = ['1=Strongly disagree', '2=Disagree', '3=Neither', '4=Agree', '5=Strongly agree'];
  const items = Array.from({ length: nItems }, (_, k) => ({
    id: `q${k + 1}`,
    kind: 'likert',
    text: `Statement ${k + 1}.`,
    options,
  }));
  const answers = { '1': 0.1, '2': 0.2, '3': 0.4, '4': 0.2, '5': 0.1 };
  const truth = {
    compression: 0.5,
    flip: 0.3,
    items: Object.fromEntries(items.map((i) => [i.id, { answers }])),
  };
  const paths = { items: join(OUT, 'survey-items.yaml'), truth: join(OUT, 'survey-truth.yaml') };
  writeFileSync(paths.items, stringify(items));
  writeFileSync(paths.truth, stringify(truth));
  return paths;
}

async function main(): Promise<void> {
  const paths = writeInputs();
  const server = await startChildLlmServer(0, ['--synthetic', paths.truth]);
  const log = join(OUT, `survey-${agents}x${nItems}.ndjson`);
  rmSync(log, { force: true });
  const params = {
    agents,
    items: paths.items,
    personas: join(DATA, 'marginals.yaml'),
    elicitation: values.elicitation,
  };
  const inputs = new InputBuffer();
  const llm = await openLiveLlm(
    resolveRunLlm(
      { llmBaseUrl: server.url, llmConcurrency: values.concurrency, model: 'grapevine-local' },
      {},
    ),
    new RngStreams(1),
    inputs,
  );
  const c0 = cpuMs();
  const t0 = performance.now();
  const live = await runWorld(world, {
    params,
    seed: 1,
    openLog: (header) => LogWriter.create(log, { ...header, wall: { llmEndpoint: llm.endpoint } }),
    llm: llm.port,
    llmInfo: llm.info,
    inputs,
    fallbacks: llm.counters,
  }).finally(() => Promise.all([llm.close(), server.stop()]));
  const wallMs = performance.now() - t0;
  const liveCpu = cpuMs() - c0;
  const calls = llm.counters.calls;
  const recorded = await readRecordedRun(log);
  const r0 = cpuMs();
  const rt0 = performance.now();
  const replay = await rerunLog(recorded, world, { services: replayServices(recorded)! });
  const replayWall = performance.now() - rt0;
  const replayCpu = cpuMs() - r0;
  const row = {
    respondents: agents,
    items: nItems,
    calls,
    wallS: +(wallMs / 1000).toFixed(2),
    callsPerS: Math.round(calls / (wallMs / 1000)),
    clientCpuMsPerCall: +(liveCpu / calls).toFixed(3),
    replayWallS: +(replayWall / 1000).toFixed(2),
    replayCpuMsPerCall: +(replayCpu / calls).toFixed(3),
    sameDigest: replay.digest === live.digest,
  };
  console.log(JSON.stringify(row));
}

await main();
