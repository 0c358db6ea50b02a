export * from './answer-shares.ts';
export * from './answers.ts';
export * from './compare-answers.ts';
export * from './distances.ts';
export * from './noise-floor.ts';
export * from './read-answers.ts';
export * from './read-human.ts';
export * from './render-compare-html.ts';
