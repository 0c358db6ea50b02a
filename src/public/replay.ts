// `grapevine/replay`: replay logs. Write a run's log, read one, rerun it; the errors a log
// that does not read or does not reproduce raises.

export type { LogPosition } from '../core/index.ts';
export { DivergenceError, ENGINE_VERSION, LogFormatError } from '../core/index.ts';
export type { LogHeader, RecordedRun, RerunOptions } from '../replay/index.ts';
export { LOG_FORMAT, LogWriter, readLog, readRecordedRun, rerunLog } from '../replay/index.ts';
// What `runWorld` writes its log through (`RunOptions.openLog`, `RunOptions.level`).
export type { LogLevel, RunLog } from '../world/index.ts';
