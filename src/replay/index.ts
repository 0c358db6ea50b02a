// The replay floor: what the floors above it (and bench/) use. Its rooms: format/ (the log's
// formats), read/ (the one reader, `readLog`), write/ (the writer), continue/ (rerun, fork, resume).

export { openContinuationLlm } from './continue/continuation-llm.ts';
export type { ContinueOptions } from './continue/continue-run.ts';
export {
  continueRun,
  endOfTick,
  lastTick,
  recordsToReplay,
  restorePoint,
} from './continue/continue-run.ts';
export { copyPrefix, flattenLog, readSnapshotAt } from './continue/copy-lines.ts';
export type { RerunOptions } from './continue/rerun-log.ts';
export { recordedRunOptions, rerunLog } from './continue/rerun-log.ts';
export type { ChildFactory, ForkChild } from './continue/restore-once.ts';
export { restoreOnce } from './continue/restore-once.ts';
export { removeStalePartials } from './continue/stale-partials.ts';
export type { LogHeader } from './format/log-format.ts';
export { LOG_FORMAT } from './format/log-format.ts';
export { dropParentIndex, parentIndexPath } from './format/log-index.ts';
export { readHeader, readLog, scanLog } from './read/read-log.ts';
export type { RecordedRun } from './read/recorded-run.ts';
export { readRecordedRun } from './read/recorded-run.ts';
export { GuardedLog } from './write/guarded-log.ts';
export { holdLogLock } from './write/log-lock.ts';
export { LogWriter } from './write/log-writer.ts';
