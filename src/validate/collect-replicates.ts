import type { CaseContext, Replicate } from './validation-case.ts';

/**
 * The usual loop of a case: runs attempt 0, 1, 2, … (each seeded by the battery's rule) and
 * keeps the replicates `observe` returns (null: the run does not qualify), until enough
 * qualified or the attempts allowed are used up (or, under the battery's `stopWhenDecided`,
 * as soon as the case is sure to fail).
 */
export async function collectReplicates(
  ctx: CaseContext,
  observe: (k: number) => Promise<Replicate | null>,
): Promise<Replicate[]> {
  const out: Replicate[] = [];
  for (let k = 0; out.length < ctx.replicates && k < ctx.attempts; k++) {
    const r = await observe(k);
    if (r) out.push(r);
    if (ctx.decided?.(out, k + 1)) break;
  }
  return out;
}
