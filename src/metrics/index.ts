export * from './prompt-audit.ts';
