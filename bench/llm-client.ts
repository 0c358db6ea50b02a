/**
 * CPU per chat call of the LLM client path, layer by layer, against the shipped local server
 * (`grapevine serve-llm --latency-ms 0`, a child process whose CPU is not counted). Each
 * layer runs in its own process (this file with `--layer`), the layers in turn, `--rounds`
 * times; the table gives the median CPU (user + system) per call and every round.
 * See bench/README.md ("llm-client").
 *
 *   npx tsx bench/llm-client.ts [--calls 3000] [--concurrency 64] [--rounds 3] [--layers a,b,...]
 */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as undici from 'undici';
import { z } from 'zod';
import { RngStreams } from '../src/core/index.ts';
import { bufferedFetch } from '../src/llm/buffered-fetch.ts';
import {
  ChatOpenAIPort,
  decideStructured,
  type LlmPort,
  type LlmRequest,
  openLlm,
  resolveLlmConfig,
} from '../src/llm/index.ts';
import { startChildLlmServer } from './tools/child-llm-server.ts';

/** The layers, cheapest first: what each adds is the difference to the one before. */
const LAYERS = {
  'fetch-global': 'POST with the global fetch, JSON body read',
  'fetch-buffered': 'POST with bufferedFetch (undici request), JSON body read',
  'port-global': 'decideStructured on ChatOpenAIPort (LangChain ChatOpenAI, OpenAI SDK) on the global fetch',
  'port-buffered': 'decideStructured on ChatOpenAIPort on bufferedFetch (the default)',
  session: 'decideStructured on a run session: recording, retry, concurrency limit, ChatOpenAIPort',
} as const;
type Layer = keyof typeof LAYERS;

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    layers: { type: 'string', default: Object.keys(LAYERS).join(',') },
    layer: { type: 'string' },
    url: { type: 'string' },
  },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);

const schema = z.object({ action: z.enum(['say', 'wait']), text: z.string() });
/** A town-square-sized prompt (system persona, ~1 KB of heard lines), a new seed per call. */
const request = (i: number): LlmRequest => ({
  caller: `r${i % 50}`,
  tick: i,
  purpose: 'decide',
  messages: [
    { role: 'system', content: 'Name: Ada Moreno\nPersona: a baker who hears everything first.\n'.repeat(4) },
    {
      role: 'user',
      content: `Heard at tick ${i}:\n${'Bob: the mayor says the well is dry\n'.repeat(30)}What now?`,
    },
  ],
  params: { model: 'grapevine-local', temperature: 0.7, seed: i },
});

async function callsOf(layer: Layer, url: string): Promise<(i: number) => Promise<unknown>> {
  if (layer === 'fetch-global' || layer === 'fetch-buffered') {
    const f = layer === 'fetch-global' ? globalThis.fetch : bufferedFetch(undici);
    return async (i) => {
      const r = request(i);
      const body = JSON.stringify({ model: r.params.model, messages: r.messages, seed: i });
      const res = await f(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body,
      });
      return res.json();
    };
  }
  let port: LlmPort;
  if (layer === 'session') {
    const config = resolveLlmConfig({
      flags: { llmBaseUrl: url, llmConcurrency: String(concurrency), model: 'grapevine-local' },
      env: {},
    });
    port = (await openLlm(config)).session({ streams: new RngStreams(1), onRecord: () => {} }).port;
  } else {
    port = new ChatOpenAIPort({
      baseURL: url,
      apiKey: 'sk-bench',
      ...(layer === 'port-global' ? { fetch: globalThis.fetch } : {}),
    });
  }
  return (i) => decideStructured(port, request(i), schema, { fallback: { action: 'wait', text: '' } });
}

/** One layer in this process: warm up, then `calls` calls, `concurrency` at a time; prints CPU ms per call. */
async function runLayer(layer: Layer, url: string): Promise<void> {
  const one = await callsOf(layer, url);
  for (let i = 0; i < 200; i++) await one(i);
  const cpu0 = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await one(next++);
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${(cpu.user + cpu.system) / 1000 / calls}\n`);
}

async function main(): Promise<void> {
  const layers = values.layers.split(',') as Layer[];
  for (const l of layers)
    if (!(l in LAYERS)) throw new Error(`unknown layer ${l}; one of ${Object.keys(LAYERS).join(', ')}`);
  const server = await startChildLlmServer(0);
  const runs = new Map<Layer, number[]>(layers.map((l) => [l, []]));
  try {
    for (let round = 0; round < Number(values.rounds); round++)
      for (const layer of layers) {
        const child = spawnSync(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(import.meta.url), ...['--layer', layer, '--url', server.url]],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env } },
        );
        if (child.status !== 0) throw new Error(`layer ${layer} exited with ${child.status}`);
        runs.get(layer)?.push(Number(child.stdout.trim()));
      }
  } finally {
    await server.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = layers.map((l) => {
    const xs = runs.get(l) ?? [];
    return `| ${l} | ${median(xs).toFixed(3)} | ${xs.map((x) => x.toFixed(3)).join(', ')} | ${LAYERS[l]} |`;
  });
  process.stdout.write(
    [
      `${calls} calls per run, ${concurrency} in flight, load ${(await import('node:os')).loadavg()[0].toFixed(1)} at the end`,
      '',
      '| layer | CPU ms/call (median) | runs | what runs |',
      '|---|--:|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

if (values.layer) {
  await runLayer(values.layer as Layer, values.url!);
  process.exit(0); // the keep-alive pools would hold the process a few seconds
} else {
  await main();
}
