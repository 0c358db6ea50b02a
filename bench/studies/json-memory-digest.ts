/**
 * The per-tick state digest of LLM agents' JSON memory, format 1 against format 2, alone:
 * `agents` memory streams capped at 500 entries, `perTick` new entries each tick per agent
 * (so as many evictions once full), then each format's digest of the whole population.
 * Prints CPU ms per tick of each (user + system; the machine may be shared).
 *
 * npx tsx bench/studies/json-memory-digest.ts [agents=50] [ticks=200] [perTick=25]
 */
import { createHash } from 'node:crypto';
import { CanonicalJsonCache } from '../../src/agent/canonical-json-cache.ts';
import { JsonMemoryDigest } from '../../src/agent/json-memory-digest.ts';
import { emptyMemory, type MemoryStreamState, remember } from '../../src/memory/index.ts';

const [agents, ticks, perTick] = [2, 3, 4].map((i, n) => Number(process.argv[i] ?? [50, 200, 25][n]));
const cpu = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const slots = new Set<string>();
const json = new CanonicalJsonCache();
const additive = new JsonMemoryDigest(agents);
const streams: MemoryStreamState[] = Array.from({ length: agents }, () => emptyMemory());
let full = 0;
let add = 0;
let last = ['', ''];
for (let t = 1; t <= ticks; t++) {
  for (let i = 0; i < agents; i++) {
    const batch = Array.from({ length: perTick }, (_, m) => ({
      t,
      kind: 'observation' as const,
      text: `Resident ${m}: on turn ${t} I heard that the mill bridge closes (${(i * 7 + m) % 13}).`,
    }));
    streams[i] = remember(streams[i], batch);
  }
  const mems = streams.map((memory, i) => ({ memory, heard: { fact: `said ${i % 3}` }, fallback: false }));
  let c = cpu();
  const h = createHash('sha256').update('0000000000000000[');
  mems.forEach((m, i) => {
    if (i > 0) h.update(',');
    h.update(json.write([i, m]));
  });
  const f1 = h.update(']').digest('hex').slice(0, 16);
  full += cpu() - c;
  c = cpu();
  mems.forEach((m, i) => {
    additive.update(i, m, slots);
  });
  const f2 = additive.hex('0000000000000000');
  add += cpu() - c;
  last = [f1, f2];
}
console.log(
  `${agents} agents x ${ticks} ticks, ${perTick} new memories per agent per tick (cap 500): ` +
    `format 1 ${(full / ticks).toFixed(2)} ms/tick, format 2 ${(add / ticks).toFixed(2)} ms/tick, ` +
    `ratio ${(full / add).toFixed(1)}x (last digests ${last.join(' ')})`,
);
