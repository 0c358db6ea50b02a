// `grapevine/cli`: what an application hands to the `grapevine` command (its worlds and
// commands), what a contributed command shares with the engine's own (output, progress,
// flags, counters), and what the engine's commands do to a world, as functions.

// A contribution: worlds and commands an application hands to `grapevine`.
export type { AnswerExtractor, CliContribution, CliIo } from '../cli/cli-contribution.ts';
// What a contributed command shares with the engine's own commands.
export type { CommandOutput } from '../cli/command-output.ts';
export { PROCESS_OUTPUT } from '../cli/command-output.ts';
export { describeCounters } from '../cli/describe-counters.ts';
export { positiveIntFlag } from '../cli/flags.ts';
export type { ProgressOptions } from '../cli/progress.ts';
export { Progress } from '../cli/progress.ts';
// A world checked, described and given parameters and interventions as the commands do.
export {
  checkWorld,
  describeParams,
  isWorldDefinition,
  parseIntervention,
  resolveParams,
} from '../world/index.ts';
