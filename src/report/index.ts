export * from './analyze-log.ts';
export * from './asymmetry.ts';
export * from './cascade-stats.ts';
export * from './cascades.ts';
export * from './final-state.ts';
export * from './llm-series.ts';
export * from './matched-size.ts';
export * from './tick-series.ts';
