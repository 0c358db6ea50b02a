import type { Command } from 'commander';

/**
 * The options of every command that reruns or reads a log (replay, inspect, fork, resume,
 * audit, report, export, view): where the world and the network file that wrote the log
 * are, when the log's recorded paths do not lead to them. Never taken from the log itself.
 */
export interface LogWorldOptions {
  /** `--world FILE`: the world file that wrote the log (its recorded sha256 checked first). */
  world?: string;
  /** `--network-file FILE`: the network file the run read (its recorded sha256 checked first). */
  networkFile?: string;
  /** `--input PARAM=FILE`: a file the run read for a parameter (its recorded sha256 checked first). */
  input?: string[];
  /** False with `--no-check`: a named world file is not type-checked first. */
  check?: boolean;
}

/** Declares {@link LogWorldOptions} on a command, once for every command that reads a log. */
export function addLogWorldOptions(cmd: Command): Command {
  return cmd
    .option('--world <file>', 'the world file that wrote the log (sha256 checked first)')
    .option(
      '--network-file <file>',
      'the network file the run read, if its recorded path does not lead to it (sha256 checked)',
    )
    .option(
      '--input <param=file>',
      'a file the run read for a parameter (PARAM=FILE, repeatable): needed when the log records no sha256 of it, or its path does not lead to it (sha256 checked)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--no-check', 'do not type-check the --world file first');
}
