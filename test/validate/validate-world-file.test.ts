// `grapevine validate --world FILE`: a world file written outside the checkout declares its
// own validation cases (test/support/user-sir-validation.ts) and the compiled CLI runs them,
// in that folder, with the same planning, bands, seeds and --perturb as the built-in cases.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { USER_SIR_VALIDATION } from '../support/user-sir-validation.ts';
import { USER_SIR_WORLD } from '../support/user-sir-world.ts';

const dir = tempDir('user-validate');
const run = (args: string[], env?: Record<string, string>) =>
  cli(['validate', ...args], { cwd: dir, timeoutMs: 300_000, env });

beforeAll(() => {
  writeFileSync(join(dir, 'sir.ts'), USER_SIR_VALIDATION);
  // the user's bug: recovery drawn with 90% of gamma, the deviation the case says it detects
  const broken = USER_SIR_VALIDATION.replace(
    'ctx.rng.chance(ctx.params.gamma)',
    'ctx.rng.chance(ctx.params.gamma * 0.9)',
  );
  expect(broken).not.toBe(USER_SIR_VALIDATION);
  writeFileSync(join(dir, 'broken.ts'), broken);
  writeFileSync(join(dir, 'no-cases.ts'), USER_SIR_WORLD);
  const malformed = USER_SIR_VALIDATION.replace('maxReplicates: 2000,', 'maxReplicates: 0,');
  expect(malformed).not.toBe(USER_SIR_VALIDATION);
  writeFileSync(join(dir, 'malformed.ts'), malformed);
});

describe('grapevine validate --world FILE (a world file outside the checkout)', () => {
  it("runs the file's own cases, planned from its design: prediction, band, runs and power in --json", async () => {
    const r = await run(['--world', './sir.ts', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ passed: true, familyAlpha: 0.01, alphaPerCase: 0.01 });
    expect(report.cases.map((c: { id: string }) => c.id)).toEqual(['user-sir-recovery-duration']);
    const [c] = report.cases;
    // E[max of 4 geometric(0.2) periods] = Σ_t 1 − (1 − 0.8^t)^4, summed here independently
    let mean = 0;
    for (let t = 0; t < 2000; t++) mean += 1 - (1 - 0.8 ** t) ** 4;
    expect(c.predicted).toBeCloseTo(mean, 9);
    expect(c.power).toBeGreaterThanOrEqual(0.95);
    expect(c.qualified).toBe(c.replicates);
    expect(c.values).toHaveLength(c.replicates);
    expect(c.lo).toBeLessThan(c.observed);
    expect(c.hi).toBeGreaterThan(c.observed);
    // the built-in cases are not run with --world
    expect(r.stdout).not.toMatch(/maki-thompson/);
  }, 300_000);

  it('fails the world with the error its case states it detects (exit 1); --no-check skips the type check', async () => {
    // a cache folder of its own: a check that passed would leave its entry there
    const cache = join(dir, 'no-check-cache');
    const r = await run(['--world', './broken.ts', '--no-check'], { GRAPEVINE_CACHE_DIR: cache });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/user-sir-recovery-duration .*FAIL/);
    expect(r.stdout).toMatch(/0\/1 cases pass/);
    expect(existsSync(join(cache, 'type-check'))).toBe(false);
  }, 300_000);

  it('--perturb applies to the file’s cases through the parameters they read', async () => {
    const r = await run(['--world', './sir.ts', '--perturb', 'gamma=0.9', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [c] = JSON.parse(r.stdout).cases;
    expect(c.perturbation).toMatchObject({ key: 'gamma', factor: 0.9, detected: true, mustDetect: true });
    expect(c.perturbation.expectedPower).toBeGreaterThanOrEqual(0.95);
  }, 300_000);

  it('a file without cases, or with a malformed case, is refused in one line (exit 2) before any run', async () => {
    const none = await run(['--world', './no-cases.ts']);
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toMatch(/exports no validationCases/);
    const bad = await run(['--world', './malformed.ts', '--no-check']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(
      /case "user-sir-recovery-duration": "maxReplicates" must be a positive integer/,
    );
    const builtin = await run(['--world', 'rumor']);
    expect(builtin.code).toBe(2);
    expect(builtin.stderr.split('\n')[0]).toMatch(/--world takes a world file/);
    for (const x of [none, bad, builtin]) expect(hasStack(x.stderr)).toBe(false);
  }, 300_000);
});
