import { describe, expect, it } from 'vitest';
import type { WorldInstance } from '../../../src/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import {
  degrootCase,
  friedkinJohnsenCase,
  type OpinionWorld,
  opinionCases,
} from '../../../worlds/opinion/validation.ts';
import { voterCase } from '../../../worlds/opinion/voter-validation.ts';

/** The opinion world with one thing of its built instance changed: a deliberately broken model. */
function broken(change: Partial<WorldInstance<unknown>>): OpinionWorld {
  return { ...world, create: (setup) => ({ ...world.create(setup), ...change }) } as OpinionWorld;
}

describe('opinion validation cases', () => {
  it('are the DeGroot, Friedkin–Johnsen and voter cases, all quick', () => {
    expect(opinionCases.map((c) => c.id)).toEqual([
      'degroot-consensus',
      'friedkin-johnsen-steady-state',
      'voter-exit-probability',
    ]);
    expect(opinionCases.every((c) => c.quick && c.source.length > 20)).toBe(true);
  });

  it('DeGroot: the consensus equals π·x(0) within the derived band', async () => {
    const o = await degrootCase().run({ seed: 1, replicates: 2 });
    expect(o.pass).toBe(true);
    expect(o.observed).toHaveLength(2);
    expect(o.tolerance).toBeLessThan(1e-9);
    for (const v of o.observed) expect(Math.abs(v)).toBeLessThanOrEqual(o.tolerance);
  }, 120_000);

  it('Friedkin–Johnsen: the steady state equals (I − ΛW)⁻¹(I − Λ)u within the derived band', async () => {
    const o = await friedkinJohnsenCase().run({ seed: 1, replicates: 2 });
    expect(o.pass).toBe(true);
    expect(o.tolerance).toBeLessThan(1e-9);
    for (const v of o.observed) expect(v).toBeLessThanOrEqual(o.tolerance);
  }, 120_000);
});

describe('the battery can fail', () => {
  it('DeGroot updated asynchronously (each agent wakes at its own random times) misses π·x(0)', async () => {
    const o = await degrootCase(broken({ turnPolicy: 'async' })).run({ seed: 1, replicates: 1 });
    expect(o.pass).toBe(false);
    expect(Math.abs(o.observed[0])).toBeGreaterThan(1000 * o.tolerance);
  }, 120_000);

  it('DeGroot on stale opinions (two-tick messages) misses π·x(0)', async () => {
    const o = await degrootCase(broken({ latency: 2 })).run({ seed: 1, replicates: 1 });
    expect(o.pass).toBe(false);
    expect(Math.abs(o.observed[0])).toBeGreaterThan(1000 * o.tolerance);
  }, 120_000);

  it('voter: opinion 1 wins with probability s; a biased responder fails the case', async () => {
    const o = await voterCase().run({ seed: 1, replicates: 5 });
    expect(o.observed).toHaveLength(200);
    expect(o.pass).toBe(true);
    // a responder that always claims opinion 1: opinion 1 wins every replicate
    const biased = broken({ respond: (ctx) => ctx.reply('say', undefined, 1) });
    const b = await voterCase(biased).run({ seed: 1, replicates: 1 });
    expect(b.pass).toBe(false);
  }, 120_000);
});
