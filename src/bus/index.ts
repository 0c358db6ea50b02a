export * from './delivery-batch.ts';
export * from './inbox.ts';
export * from './message.ts';
export * from './message-bus.ts';
export * from './state-budget.ts';
export * from './string-codes.ts';
export * from './visibility-rules.ts';
