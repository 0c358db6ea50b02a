export * from './agent-executor.ts';
export * from './agent-machine.ts';
export * from './columnar-executor.ts';
export * from './compile-machine.ts';
export * from './machine-layout.ts';
export * from './state-hash.ts';
export * from './step-context.ts';
export * from './xstate-executor.ts';
