/** Where a run writes its events: a log file, a verifier, or nothing. */
export interface RunLog {
  /** Appends an event line; returns its sequence number. */
  append(type: string, t: number, fields: Record<string, unknown>): number;
  /** Makes everything appended so far durable (called at the end of every tick). */
  flush(): void;
  /** Flushes and closes; returns the run digest. */
  close(): string;
  /** Sequence number of the last line written. */
  readonly seq: number;
  /**
   * The log's format tag (`grapevine-log/3`, or `grapevine-log/2` or `/1` when rerunning or
   * continuing an older log); what the engine writes depends on it. Unset: the newest.
   */
  readonly format?: string;
}

/** Log detail: `minimal` = enough to rerun plus per-tick digests and metrics; `full` adds every action and delivery. */
export type LogLevel = 'minimal' | 'full';
