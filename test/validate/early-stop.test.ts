import { describe, expect, it } from 'vitest';
import type { WorldDefinition } from '../../src/index.ts';
import {
  type CaseDesign,
  type CasePlan,
  certainFailure,
  collectReplicates,
  judgeCase,
  planCase,
  type Replicate,
  runBattery,
  type ValidationCase,
} from '../../src/validate/index.ts';

// The battery's stopWhenDecided: a case stops once its failure is certain whatever its
// remaining runs give. The rule is checked against the judge over every continuation of
// small cases, then in the battery on cases whose replicates come from a list. Real broken
// rows run both ways in test/validate/broken-epidemic.test.ts.

const reps = (values: readonly number[]): Replicate[] => values.map((value) => ({ value }));

/** Every sequence of length n over `values`. */
function* sequences(values: readonly number[], n: number): Generator<number[]> {
  if (n === 0) {
    yield [];
    return;
  }
  for (const head of sequences(values, n - 1)) for (const v of values) yield [...head, v];
}

const proportion: CaseDesign = {
  test: 'proportion',
  predicted: 0.5,
  sd: 0,
  bias: 0,
  rule: 'test',
  deviation: { label: 'P = 0.9', mean: 0.9, sd: 0 },
  qualify: 1,
};

const mean: CaseDesign = {
  test: 'mean',
  predicted: 0.5,
  sd: 0.3,
  bias: 0,
  rule: 'test',
  deviation: { label: 'a shift of 0.4', mean: 0.9, sd: 0.3 },
  qualify: 1,
  valueRange: [0, 1],
};

/**
 * Checks the rule on every sequence of `plan.replicates` values from `grid`: a prefix it
 * decides fails under the judge whatever follows. Returns how many prefixes it decided and
 * how many it left open although every continuation from the grid fails.
 */
function checkAll(d: CaseDesign, plan: CasePlan, grid: readonly number[]) {
  const r = plan.replicates;
  let decided = 0;
  let openButFailing = 0;
  const fails = new Map<string, boolean>();
  for (const full of sequences(grid, r)) fails.set(full.join(), !judgeCase(d, plan, reps(full)).pass);
  const allFail = (prefix: number[]) => {
    for (const rest of sequences(grid, r - prefix.length))
      if (!fails.get([...prefix, ...rest].join())) return false;
    return true;
  };
  for (let j = 0; j < r; j++)
    for (const prefix of sequences(grid, j)) {
      const v = certainFailure(d, plan, reps(prefix), j);
      const certain = allFail(prefix);
      if (v) {
        decided++;
        expect(certain, `[${prefix}] decided: ${v.reason}`).toBe(true);
        expect(v.pass).toBe(false);
      } else if (certain) openButFailing++;
    }
  return { decided, openButFailing };
}

describe('certainFailure: a failure decided early is the failure of every continuation', () => {
  it('proportion, 12 replicates: decides exactly the prefixes whose every continuation fails', () => {
    const plan = planCase(proportion, 0.05, 12);
    expect(plan.replicates).toBe(12);
    expect(plan.lo).toBeGreaterThan(0);
    expect(plan.hi).toBeLessThan(12);
    const { decided, openButFailing } = checkAll(proportion, plan, [0, 1]);
    expect(decided).toBeGreaterThan(0);
    // counts: the rule is also tight, nothing certain is left open
    expect(openButFailing).toBe(0);
  });

  it('mean with values in [0, 1], 6 replicates: every decided prefix fails whatever follows on a grid', () => {
    const plan = planCase(mean, 0.01, 6);
    expect(plan.replicates).toBe(6);
    const { decided } = checkAll(mean, plan, [0, 0.25, 0.5, 0.75, 1]);
    expect(decided).toBeGreaterThan(0);
  });

  it('decides a mean only once even the most favourable rest cannot reach the band', () => {
    const plan = planCase(mean, 0.01, 6);
    // band about 0.5 ± 0.315: four zeros and two ones give 1/3, inside
    expect(judgeCase(mean, plan, reps([0, 0, 0, 0, 1, 1])).pass).toBe(true);
    expect(certainFailure(mean, plan, reps([0, 0, 0, 0]), 4)).toBeNull();
    // five zeros: at most 1/6, below the band
    expect(certainFailure(mean, plan, reps([0, 0, 0, 0, 0]), 5)?.reason).toMatch(
      /below the band even if the other 1 are 1/,
    );
    expect(certainFailure(mean, plan, reps([1, 1, 1, 1, 1]), 5)?.reason).toMatch(
      /above the band even if the other 1 are 0/,
    );
  });

  it('never decides a mean without a value range, with per-replicate predictions, or with a value outside its range', () => {
    const plan = planCase(mean, 0.01, 6);
    const zeros = reps([0, 0, 0, 0, 0]);
    expect(certainFailure({ ...mean, valueRange: undefined }, plan, zeros, 5)).toBeNull();
    expect(certainFailure(mean, plan, [...zeros.slice(1), { value: 0, variance: 0.09 }], 5)).toBeNull();
    expect(certainFailure(mean, plan, [...zeros.slice(1), { value: -1 }], 5)).toBeNull();
  });

  it('decides too few attempts left, a value that is not finite, an exact replicate outside its bound', () => {
    const plan = { ...planCase(mean, 0.01, 6), attempts: 10 };
    expect(certainFailure(mean, plan, reps([0.5, 0.5]), 6)).toBeNull();
    expect(certainFailure(mean, plan, reps([0.5]), 6)?.reason).toMatch(/at most 5 can in 10/);
    expect(certainFailure(mean, plan, reps([0.5, Number.NaN]), 2)?.reason).toMatch(/not a finite number/);
    const exact: CaseDesign = { ...mean, test: 'exact', predicted: 0, bias: 1e-9, valueRange: undefined };
    const ep = planCase(exact, 0.01, 5);
    expect(certainFailure(exact, ep, [{ value: 1e-10 }, { value: 0 }], 2)).toBeNull();
    expect(certainFailure(exact, ep, [{ value: 0 }, { value: 1e-6 }], 2)?.reason).toMatch(
      /replicate 1 lies outside/,
    );
  });
});

/**
 * A case whose replicates are a fixed list (its world is never run): attempt k gives
 * `values[k]`, null for a run that does not qualify.
 */
function listed(d: CaseDesign, budget: number, values: readonly (number | null)[]): ValidationCase {
  return {
    id: 'listed',
    model: 'a list',
    setting: 'values from a list',
    source: 'this test',
    quick: true,
    world: {} as WorldDefinition,
    params: {},
    reads: [],
    design: () => d,
    maxReplicates: budget,
    quickReplicates: budget,
    run: (ctx) =>
      collectReplicates(ctx, async (k) => {
        const v = values[k];
        return v === null || v === undefined ? null : { value: v };
      }),
  };
}

async function bothWays(c: ValidationCase, familyAlpha = 0.01) {
  const [full] = await runBattery([c], { familyAlpha });
  const [stopped] = await runBattery([c], { familyAlpha, stopWhenDecided: true });
  return { full, stopped };
}

describe('stopWhenDecided in the battery', () => {
  it('a case that stops early fails as its full run does, on the same first replicates', async () => {
    // proportion: 30 replicates of P = 0.5, every one a 1
    const ones = await bothWays(listed(proportion, 30, Array(30).fill(1)));
    // mean: 6 replicates in [0, 1] around 0.5, every one 0
    const zeros = await bothWays(listed(mean, 6, Array(6).fill(0)));
    for (const { full, stopped } of [ones, zeros]) {
      expect(full.replicates).toBe(full.qualified);
      expect(full.pass).toBe(false);
      expect(full.decidedEarly).toBeUndefined();
      expect(stopped.pass).toBe(false);
      expect(stopped.decidedEarly).toBe(true);
      expect(stopped.qualified).toBeLessThan(full.qualified);
      expect(stopped.values).toEqual(full.values.slice(0, stopped.qualified));
      expect(stopped.reason).toMatch(/band/);
    }
    expect(ones.stopped.reason).toMatch(/of the first \d+ already exceed the binomial band/);
    expect(zeros.stopped.qualified).toBe(5);
  });

  it('stops on a shortfall once the runs left cannot qualify enough', async () => {
    const d = { ...mean, qualify: 0.5 };
    const { full, stopped } = await bothWays(listed(d, 6, Array(1000).fill(null)));
    expect(full.pass).toBe(false);
    expect(stopped.pass).toBe(false);
    expect(stopped.decidedEarly).toBe(true);
    expect(stopped.reason).toMatch(/at most 5 can in/);
    expect(full.reason).toMatch(/only 0 of the 6 replicates needed qualified/);
  });

  it('a case whose verdict stays open to its last replicate runs its whole budget, row for row', async () => {
    // band about 0.5 ± 0.315: after 0, 0, 0, 0, 0.2 a last 1 would still bring the mean to 0.2
    const late = await bothWays(listed(mean, 6, [0, 0, 0, 0, 0.2, 0]));
    expect(late.full.pass).toBe(false);
    expect(late.stopped).toEqual(late.full);
    const passing = await bothWays(listed(mean, 6, [0.4, 0.6, 0.5, 0.5, 0.3, 0.7]));
    expect(passing.full.pass).toBe(true);
    expect(passing.stopped).toEqual(passing.full);
    const inside = await bothWays(
      listed(
        proportion,
        30,
        Array.from({ length: 30 }, (_, k) => k % 2),
      ),
    );
    expect(inside.full.pass).toBe(true);
    expect(inside.stopped).toEqual(inside.full);
  });
});
