export * from './define-world.ts';
export * from './engine.ts';
export * from './input-buffer.ts';
export * from './intervention.ts';
export * from './resolve-params.ts';
export * from './run-log.ts';
export * from './runner.ts';
export * from './world-view.ts';
