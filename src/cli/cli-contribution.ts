import type { Command } from 'commander';
import type { LocalEndpoint } from '../llm/index.ts';
import type { LlmResponder } from '../llm-server/index.ts';
import type { ValidationCase } from '../validate/index.ts';
import type { SurveyAnswer } from '../validity/index.ts';
import type { WorldDefinition } from '../world/index.ts';

/** What a contribution's commands get from the CLI. */
export interface CliIo {
  /** Sets the process exit code of the command being run (0 ok, 1 failed run, 2 bad input). */
  setExit(code: number): void;
  /**
   * Starts the shipped local LLM server (a free port) with every contribution's responders:
   * what a command passes as `localServer` to `openSharedLlm` when no endpoint is named.
   */
  startLocalLlm(): Promise<LocalEndpoint>;
}

/** A command-line option of `grapevine serve-llm` that a contribution's responders read. */
export interface ResponderOption {
  /** Commander's flag syntax, e.g. `--synthetic <file>`. */
  flags: string;
  /** The help line. */
  description: string;
}

/**
 * How an application's worlds answer their own prompts on the shipped local LLM server
 * (`grapevine serve-llm`, and the server that `run`, `fork`, `sweep`... start when no
 * endpoint is named): responders asked before the generic ones.
 */
export interface ResponderContribution {
  /** Options of `serve-llm` the responders read; declared here so that help lists them without loading them. */
  options?: readonly ResponderOption[];
  /**
   * Loads the responders. `options` holds the values of {@link ResponderContribution.options}
   * given to `serve-llm` (camelCase keys, as commander names them); other commands give none.
   */
  load(options: Readonly<Record<string, string | undefined>>): Promise<readonly LlmResponder[]>;
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
  /** Responders of the shipped local LLM server for its worlds' prompt formats (loaded only when a server starts). */
  responders?: ResponderContribution;
}

/** Reads the survey answers recorded in a log (see `grapevine compare`). */
export type AnswerExtractor = (logPath: string) => Promise<readonly SurveyAnswer[]>;
