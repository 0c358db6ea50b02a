import { resolve } from 'node:path';
import { ConfigError } from '../../src/index.ts';
import { checkAgent, readNumberRows } from './number-rows.ts';

/**
 * Reads a per-agent value file ("i,value" lines): every agent 0..size-1 exactly once, each
 * value inside [min, max].
 * @throws ConfigError naming `file:line` for a bad index, a repeated agent or a value out of
 * range, and naming the first missing agent.
 */
export function loadAgentValues(
  path: string,
  size: number,
  what: string,
  range: [number, number],
): Float64Array {
  const full = resolve(path);
  const out = new Float64Array(size);
  const seen = new Uint8Array(size);
  for (const row of readNumberRows(full, 2, what, 'i,value')) {
    const [i, v] = row.values;
    checkAgent(full, row, i, size);
    if (seen[i])
      throw new ConfigError(`${full}:${row.line}: agent ${i} appears twice`, {
        hint: 'give each agent one line',
      });
    if (v < range[0] || v > range[1])
      throw new ConfigError(`${full}:${row.line}: ${what} ${v} is outside [${range[0]}, ${range[1]}]`, {
        hint: `${what} values must lie in [${range[0]}, ${range[1]}]`,
      });
    seen[i] = 1;
    out[i] = v;
  }
  const missing = seen.indexOf(0);
  if (missing >= 0)
    throw new ConfigError(`${full}: no ${what} for agent ${missing} (the population has ${size} agents)`, {
      hint: 'give every agent 0..n-1 one line',
    });
  return out;
}
