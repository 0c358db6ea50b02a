export * from './batch-stats.ts';
export * from './log-diff.ts';
export * from './prompt-audit.ts';
