import type { Policy, StepContext, WorldDefinition, WorldInstance } from '../../src/index.ts';
import {
  FAMILY_ALPHA,
  runBattery,
  type ValidationCase,
  type ValidationRow,
} from '../../src/public/analysis.ts';
import { builtinValidationCases } from '../../worlds/validation.ts';

/**
 * Test-only broken variants of public world definitions: the world is wrapped, never edited,
 * so that every mutation lives in the tests and the worlds keep one definition.
 *
 * This one changes the resolved parameters after they were checked, in place: the world's
 * `create` and the engine (which hands the same object to every step as `ctx.params`) then
 * run the model with other values than the case asked for, as a silent bug would.
 */
export function withParams(
  def: WorldDefinition,
  edit: (params: Record<string, unknown>) => Record<string, unknown>,
): WorldDefinition {
  return {
    ...def,
    create: (setup) => {
      const params = setup.params as Record<string, unknown>;
      Object.assign(params, edit({ ...params }));
      return def.create(setup);
    },
  };
}

/** A variant whose built instance has some fields replaced (`change` sees the original instance). */
export function withInstance(
  def: WorldDefinition,
  change: (instance: WorldInstance<unknown>) => Partial<WorldInstance<unknown>>,
): WorldDefinition {
  return {
    ...def,
    create: (setup) => {
      const instance = def.create(setup) as WorldInstance<unknown>;
      return { ...instance, ...change(instance) };
    },
  };
}

/** The inbox methods the worlds' policies read, over the kept messages only. */
function keptInbox(ctx: StepContext, keep: (ctx: StepContext, k: number) => boolean) {
  const inbox = ctx.inbox;
  const kept: number[] = [];
  for (let k = 0; k < inbox.length; k++) if (keep(ctx, k)) kept.push(k);
  return {
    length: kept.length,
    fromOf: (k: number) => inbox.fromOf(kept[k]),
    kindOf: (k: number) => inbox.kindOf(kept[k]),
    itemOf: (k: number) => inbox.itemOf(kept[k]),
    get: (k: number) => inbox.get(kept[k]),
  };
}

/** A policy that sees only the messages `keep` lets through (lost messages, ignored tellings). */
export function filterInbox(
  policy: Policy<unknown>,
  keep: (ctx: StepContext, k: number) => boolean,
): Policy<unknown> {
  return (ctx) => {
    const inbox = keptInbox(ctx as StepContext, keep);
    const view = new Proxy(ctx, {
      get(target, prop) {
        if (prop === 'inbox') return inbox;
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    return policy(view);
  };
}

/**
 * Runs one case of `cases` alone, with the α it has in the battery (the family's 1% over the
 * battery's number of cases) and its full or quick budget; `stopWhenDecided` as the battery's.
 */
export async function runAlone(
  cases: readonly ValidationCase[],
  id: string,
  o: { quick?: boolean; seed?: number; stopWhenDecided?: boolean } = {},
): Promise<ValidationRow> {
  const all = builtinValidationCases();
  const m = o.quick ? all.filter((c) => c.quick).length : all.length;
  const [row] = await runBattery(cases, {
    only: id,
    quick: o.quick,
    seed: o.seed,
    familyAlpha: FAMILY_ALPHA / m,
    stopWhenDecided: o.stopWhenDecided,
  });
  return row;
}

/** One row of the broken-variant table (docs/VALIDATION.md). */
export interface BrokenRow {
  /** The case that must fail. */
  id: string;
  /** The mutation, in words. */
  what: string;
  /** The world's cases, built on the broken variant. */
  cases: () => ValidationCase[];
  /** Run with the case's quick budget (else its full one). */
  quick: boolean;
  /** Part of npm test; the other rows run only in bench/validate-broken.ts. */
  inTests: boolean;
}

/** One line of a failed expectation: what the case saw. */
export function explain(r: ValidationRow): string {
  return `${r.id}: observed ${r.observed} in [${r.lo}, ${r.hi}] with ${r.qualified}/${r.replicates} (${r.runs} runs)${r.reason ? `: ${r.reason}` : ''}`;
}

/** The row maker of one world's table: its rows build that world's cases on their broken variant. */
export function brokenRowOf(
  casesOf: (variant: WorldDefinition) => ValidationCase[],
): (id: string, what: string, variant: WorldDefinition, quick: boolean, inTests: boolean) => BrokenRow {
  return (id, what, variant, quick, inTests) => ({ id, what, cases: () => casesOf(variant), quick, inTests });
}
