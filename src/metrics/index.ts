export * from './batch-effects.ts';
export * from './fork-batch.ts';
export * from './fork-child.ts';
export * from './log-diff.ts';
export * from './normalize-text.ts';
export { DEFAULT_PARTIAL_SHARE } from './partial-match.ts';
export * from './prompt-audit.ts';
