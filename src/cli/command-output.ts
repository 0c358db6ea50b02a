/** Where a command writes: the process's streams by default; tests capture them. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** The process's stdout and stderr. */
export const PROCESS_OUTPUT: CommandOutput = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
};
