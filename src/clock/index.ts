export * from './agent-sort.ts';
export * from './event-queue.ts';
export * from './next-reaction-policy.ts';
export * from './turn-policies.ts';
export * from './turn-policy.ts';
export * from './turn-policy-registry.ts';
export * from './wake-queue.ts';
