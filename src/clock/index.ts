export * from './agent-sort.ts';
export * from './event-queue.ts';
export * from './turn-policies.ts';
export * from './turn-policy.ts';
