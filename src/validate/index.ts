export * from './run-battery.ts';
export * from './sampling-tolerance.ts';
export * from './validation-case.ts';
