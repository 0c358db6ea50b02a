// The worker entry of a RunPool when grapevine runs from its TypeScript sources (the test
// suite, `node --import tsx`): a worker thread does not inherit the main thread's
// TypeScript loader, so this registers tsx in the thread, then serves run-worker.ts's tasks.
// The built package (dist/) uses the compiled run-worker.js and never loads this file.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./run-worker.ts');

/** Runs one run of a batch (see run-worker.ts). */
export const runTask = worker.runTask;
/** Writes one child of a fork batch (see run-worker.ts). */
export const forkTask = worker.forkTask;
