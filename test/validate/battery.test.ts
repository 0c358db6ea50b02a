import { describe, expect, it } from 'vitest';
import type { Message, StepContext, WorldDefinition } from '../../src/index.ts';
import { judgeFrequency, judgeMean, replicateStats, runBattery } from '../../src/public/analysis.ts';
import { world as epidemic } from '../../worlds/epidemic/index.ts';
import { epidemicValidationCases } from '../../worlds/epidemic/validation.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';
import { rumorValidationCases } from '../../worlds/rumor/validation.ts';
import { builtinValidationCases } from '../../worlds/validation.ts';

/** A variant of a world whose instance is changed by `edit` (a deliberately broken model). */
function variant(
  def: WorldDefinition,
  edit: (params: Record<string, unknown>) => Record<string, unknown>,
  instance?: (i: ReturnType<WorldDefinition['create']>) => void,
): WorldDefinition {
  return {
    ...def,
    create: (setup) => {
      const i = def.create({ ...setup, params: edit(setup.params as Record<string, unknown>) as never });
      instance?.(i);
      return i;
    },
  };
}

describe('validation tolerances', () => {
  it('come from the replicates and the population size, and judge both ways', () => {
    const s = replicateStats([1, 2, 3]);
    expect(s.mean).toBe(2);
    expect(s.half).toBeCloseTo(4.302652729749462 * (1 / Math.sqrt(3)), 12);
    const ok = judgeMean(0.2, [0.19, 0.21, 0.2], 10_000);
    expect(ok.pass).toBe(true);
    expect(ok.tolerance).toBeCloseTo(4.302652729749462 * (0.01 / Math.sqrt(3)) + 0.01, 12);
    expect(judgeMean(0.3, [0.19, 0.21, 0.2], 10_000).pass).toBe(false);
    expect(judgeFrequency(0, [0, 0, 0, 0], 10_000).pass).toBe(true);
    expect(judgeFrequency(0, [0, 1, 0, 0], 10_000).pass).toBe(false);
  });
});

describe('grapevine validate --quick', () => {
  it('every quick case of the built-in worlds passes', async () => {
    const rows = await runBattery(builtinValidationCases(), { quick: true });
    expect(rows.length).toBe(15);
    expect(
      rows.filter((r) => !r.pass).map((r) => `${r.id}: ${r.mean} vs ${r.predicted} ± ${r.tolerance}`),
    ).toEqual([]);
  }, 300_000);

  it('fails a Maki–Thompson whose spreaders never stop', async () => {
    // the responder never says it already knew: tellers go on for ever, everyone hears
    const broken = variant(
      rumor,
      (p) => p,
      (i) => {
        const respond = i.respond!;
        i.respond = (ctx: StepContext, said: Message) => {
          ctx.reply = () => {};
          try {
            respond(ctx as StepContext<never>, said);
          } finally {
            delete (ctx as { reply?: unknown }).reply;
          }
        };
      },
    );
    const rows = await runBattery(rumorValidationCases(broken), {
      only: 'maki-thompson-well-mixed',
      replicates: 3,
    });
    expect(rows[0].pass).toBe(false);
    expect(rows[0].mean).toBeLessThan(0.05);
  }, 300_000);

  it('fails an SIR whose transmission probability is twice what it should be', async () => {
    const broken = variant(epidemic, (p) => ({
      ...p,
      beta: Math.min(1, 2 * (p.beta as number)),
    }));
    const [row] = await runBattery(epidemicValidationCases(broken), {
      only: 'sir-well-mixed-r0-1.5',
      replicates: 3,
    });
    expect(row.pass).toBe(false);
    expect(row.mean).toBeGreaterThan(row.predicted + row.tolerance);
  }, 300_000);
});
