export * from './case-plan.ts';
export * from './collect-replicates.ts';
export * from './format-battery.ts';
export * from './judge-case.ts';
export * from './perturbation.ts';
export * from './replicate-seed.ts';
export * from './run-battery.ts';
export * from './validation-case.ts';
