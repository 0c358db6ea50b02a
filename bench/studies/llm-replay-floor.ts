/**
 * What a verified replay of an LLM world must do per decision before any memory work, and so
 * the most decisions per second it could reach on this machine:
 *
 * 1. the log: each line's chain, and one parse of each `llm` record (the record carries the
 *    prompt the agent saw, which the log keeps so that who saw what is auditable without
 *    rerunning). The fully verified read (`scanLog`) is shown beside the read a rerun makes;
 * 2. the actor: each agent is an XState actor (docs/ARCHITECTURE.md, "Agents"), and a
 *    decision is three events on it, as the engine sends them: `OBSERVE`, one memory event
 *    with the decision's keys (`setMemories`), `COMMIT` (town-square's machine, 50 actors).
 *
 * The sum is a floor: a replay also rebuilds each prompt (recall over the memory stream),
 * stores the heard lines (remember, eviction) and digests the state every tick.
 *
 *   npx tsx bench/studies/llm-replay-floor.ts [--log bench/out/llm-world-50x200-s1.ndjson] [--rounds 5]
 *
 * The log comes from `npx tsx bench/llm-world.ts --agents 50 --ticks 200`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { XStateExecutor } from '../../src/agent/xstate-executor.ts';
import type { Json } from '../../src/core/index.ts';
import { emptyMemory, remember } from '../../src/memory/index.ts';
import { readLog, scanLog } from '../../src/replay/index.ts';
import { townAgent } from '../../worlds/town-square/machine.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    log: { type: 'string', default: join(HERE, '..', 'out', 'llm-world-50x200-s1.ndjson') },
    rounds: { type: 'string', default: '5' },
  },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be an integer >= 1, got ${values.rounds}`);

const cpuMs = (from: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The log's share, two ways: the fully verified read (`scanLog`: every line parsed, encoded
 * again and its chain checked), and the read a rerun makes (`readLog` with `verify: 'chain'`:
 * each line's chain from its bytes, each line parsed once, no snapshot parsed). CPU ms of each,
 * and the decisions.
 */
async function logPass(path: string): Promise<{ scanMs: number; rawMs: number; decisions: number }> {
  let c = process.cpuUsage();
  await scanLog(path);
  const scanMs = cpuMs(c);
  c = process.cpuUsage();
  let decisions = 0;
  for await (const line of readLog(path, { verify: 'chain', parse: () => false }))
    if (line.type === 'llm') decisions++;
  return { scanMs, rawMs: cpuMs(c), decisions };
}

/** CPU µs per decision of the three XState events a decision sends to a town-square actor. */
function actorPass(decisions: number): number {
  const agents = 50;
  const executor = new XStateExecutor(townAgent as never, agents);
  for (let i = 0; i < agents; i++) executor.send(i, 'BECOME_LLM');
  // A full stream (500 entries) as the value: the event carries a reference, as in a run.
  let stream = emptyMemory();
  for (let t = 0; t < 50; t++)
    stream = remember(
      stream,
      Array.from({ length: 10 }, (_, j) => ({ t, kind: 'observation' as const, text: `line ${t} ${j}` })),
    );
  const decide = (k: number): void => {
    const i = k % agents;
    executor.beginStep(i);
    executor.setMemories(i, [
      ['memory', stream as unknown as Json],
      ['heard', { fact: `heard at ${k}` }],
      ['fallback', false],
    ]);
    executor.endStep(i);
  };
  for (let k = 0; k < decisions; k++) decide(k); // warm-up
  const c = process.cpuUsage();
  for (let k = 0; k < decisions; k++) decide(k);
  return (cpuMs(c) * 1000) / decisions;
}

const log: { scan: number[]; raw: number[]; actor: number[] } = { scan: [], raw: [], actor: [] };
let decisions = 0;
for (let r = 0; r < rounds; r++) {
  const pass = await logPass(values.log);
  decisions = pass.decisions;
  if (decisions === 0) throw new Error(`${values.log} has no llm records: run bench/llm-world.ts first`);
  log.scan.push((pass.scanMs * 1000) / decisions);
  log.raw.push((pass.rawMs * 1000) / decisions);
  log.actor.push(actorPass(20_000));
}
const f = (x: number): string => x.toFixed(1);
const scan = median(log.scan);
const raw = median(log.raw);
const actor = median(log.actor);
const floor = raw + actor;
console.log(`${values.log}: ${decisions} decisions, ${rounds} rounds (medians, CPU µs per decision)`);
console.log(`fully verified read (scanLog):          ${f(scan)} (rounds ${log.scan.map(f).join(', ')})`);
console.log(`a rerun's read (chain over bytes, parse): ${f(raw)} (rounds ${log.raw.map(f).join(', ')})`);
console.log(`three XState events (actor):             ${f(actor)} (rounds ${log.actor.map(f).join(', ')})`);
console.log(
  `floor before any memory work: ${f(floor)} µs per decision (a rerun's read + actor), at most ${Math.round(1e6 / floor).toLocaleString('en-US')} decisions/s`,
);
