export * from './base64.ts';
export * from './base64-text.ts';
export { CanonicalEncoder, sortKeys } from './canonical-encoder.ts';
export * from './canonical-json.ts';
export * from './engine-version.ts';
export * from './errors.ts';
export * from './hash.ts';
export * from './memory-budget.ts';
export * from './rng.ts';
