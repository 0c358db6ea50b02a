import type { WorldDefinition } from '../../src/index.ts';
import type { ValidationCase } from '../../src/public/analysis.ts';
import { cascadeCases, wattsCases } from './cascade-validation.ts';
import { world as rumorWorld } from './index.ts';
import { pairwiseCase, pairwiseRivalCase } from './pairwise-validation.ts';

/** The rumour world's validation cases; `world` may be a variant (tests break it on purpose). */
export function rumorValidationCases(world: WorldDefinition = rumorWorld): ValidationCase[] {
  return [
    pairwiseCase(world, 'maki-thompson', 2000),
    pairwiseCase(world, 'daley-kendall', 2000),
    pairwiseRivalCase(world, 'maki-thompson', 10),
    pairwiseRivalCase(world, 'daley-kendall', 10),
    ...cascadeCases(world),
    ...wattsCases(world),
  ];
}
