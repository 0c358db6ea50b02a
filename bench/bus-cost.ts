/**
 * Message bus cost against population size: the best time of N direct sends + release +
 * take on a bus of 1e3 agents and on one of 1e6 agents, and their ratio. A bus whose
 * per-tick work follows the messages (not the population) keeps the ratio near 1. A
 * wall-clock ratio is a benchmark, never a test: the structural half of the claim (one
 * message touches one delivery row and one recipient) is test/bus/bus-cost.test.ts.
 *
 *   npx tsx bench/bus-cost.ts [--sends 10000] [--reps 7]
 */
import { parseArgs } from 'node:util';
import { MessageBus } from '../src/bus/index.ts';
import { SeededStream } from '../src/core/index.ts';

const SMALL = 1_000;
const BIG = 1_000_000;

/** Sends `n` direct messages to random agents at `tick`, releases them, and takes every inbox. */
function directRound(bus: MessageBus, tick: number, n: number, rng: SeededStream): number {
  for (let k = 0; k < n; k++)
    bus.send(rng.int(bus.size), tick, { address: { to: 'agent', id: rng.int(bus.size) }, kind: 'k' });
  bus.release(tick + 1);
  const recipients = bus.recipients();
  let taken = 0;
  for (let k = 0; k < recipients.length; k++) taken += bus.take(recipients[k]).length;
  return taken;
}

/** Best time in nanoseconds of `reps` rounds of `n` sends; `firstTick` keeps ticks increasing. */
function bestTime(bus: MessageBus, n: number, reps: number, firstTick: number): number {
  const rng = new SeededStream('cost');
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < reps; r++) {
    const start = process.hrtime.bigint();
    const taken = directRound(bus, firstTick + 2 * r, n, rng);
    best = Math.min(best, Number(process.hrtime.bigint() - start));
    if (taken !== n) throw new Error(`took ${taken} messages, sent ${n}`);
  }
  return best;
}

const { values } = parseArgs({ options: { sends: { type: 'string' }, reps: { type: 'string' } } });
const sends = Number(values.sends ?? 10_000);
const reps = Number(values.reps ?? 7);
const small = new MessageBus({ size: SMALL });
const big = new MessageBus({ size: BIG });
bestTime(small, sends, 3, 0);
bestTime(big, sends, 3, 0);
const tBig = bestTime(big, sends, reps, 100);
const tSmall = bestTime(small, sends, reps, 100);
const ms = (ns: number) => (ns / 1e6).toFixed(2);
console.log(`${sends} direct sends + release + take, best of ${reps}`);
console.log(
  `  ${SMALL} agents: ${ms(tSmall)} ms   ${BIG} agents: ${ms(tBig)} ms   ratio ${(tBig / tSmall).toFixed(2)}`,
);
