/** zod, re-exported so that world files need no other import to declare parameters. */
export { z } from 'zod';
export * from './agent/index.ts';
export * from './bus/index.ts';
export * from './clock/index.ts';
export * from './core/index.ts';
export * from './llm/index.ts';
/** Token estimate of the LLM rate limiter (the memory module has its own, for prompt budgets). */
export { estimateTokens } from './llm/index.ts';
export * from './memory/index.ts';
export * from './network/index.ts';
export * from './validate/index.ts';
export * from './world/index.ts';
