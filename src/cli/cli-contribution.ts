import type { Command } from 'commander';
import type { ValidationCase } from '../validate/index.ts';
import type { SurveyAnswer } from '../validity/index.ts';
import type { WorldDefinition } from '../world/index.ts';

/** What a contribution's commands get from the CLI. */
export interface CliIo {
  /** Sets the process exit code of the command being run (0 ok, 1 failed run, 2 bad input). */
  setExit(code: number): void;
}

/**
 * What an application of the engine hands to the CLI: worlds runnable by id, and commands
 * of its own (e.g. the Sotopia world's `study sotopia`). The CLI's entry point
 * (bin/grapevine.mjs) passes the built-in ones from worlds/index.ts to `main`; src/ never
 * imports worlds/. Both are loaded only when used, so that `grapevine --version` or
 * `grapevine replay` do not pay for every world's modules.
 */
export interface CliContribution {
  /** Worlds runnable by id (`grapevine run <id>`), each as a loader of its definition. */
  worlds?: Readonly<Record<string, () => Promise<WorldDefinition>>>;
  /** The top-level command names that {@link CliContribution.register} adds. */
  commands?: readonly string[];
  /**
   * Adds the commands to the program. Called only when one of them is run (or for help),
   * after the engine's own commands; import heavy modules inside it or inside the actions.
   */
  register?(program: Command, io: CliIo): void | Promise<void>;
  /**
   * Where worker threads (`grapevine sweep`) import this contribution from: a module URL and
   * the name of its export (this contribution, or an array holding it). Without it, its
   * worlds cannot be swept by id.
   */
  from?: { url: string; name: string };
  /** Validation cases of its models, run by `grapevine validate` (loaded only by that command). */
  validationCases?(): Promise<readonly ValidationCase[]>;
  /**
   * Survey-answer extractors by world id: `grapevine compare <log>` loads the one of the
   * log's world and reads the answers with it (loaded only by that command).
   */
  answerSources?: Readonly<Record<string, () => Promise<AnswerExtractor>>>;
}

/** Reads the survey answers recorded in a log (see `grapevine compare`). */
export type AnswerExtractor = (logPath: string) => Promise<readonly SurveyAnswer[]>;
