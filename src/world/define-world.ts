import type { z } from 'zod';
import type { AgentMachine, Policy, Responder } from '../agent/index.ts';
import type { Visibility } from '../bus/index.ts';
import type { TurnPolicy, TurnPolicyEntry, TurnPolicyName } from '../clock/index.ts';
import type { Json, RngStreams } from '../core/index.ts';
import type { LlmPort } from '../llm/port.ts';
import type { Topology } from '../network/topology.ts';
import type { Activation } from './activation.ts';
import type { FileParamDeclarations, MetricDeclarations } from './world-declarations.ts';
import type { WorldControl, WorldView } from './world-view.ts';

/** What `create` receives. */
export interface WorldSetup<P> {
  /** Fully resolved, validated parameters. */
  params: P;
  /** The run seed. */
  seed: number;
  /** Every random stream of the run derives from here. */
  rng: RngStreams;
  /** The LLM, for worlds that declare `needsLlm` (recorded, or replayed from a log). */
  llm?: LlmPort;
  /** The model name to put in LLM requests (recorded in the log header). */
  model?: string;
  /** Where worlds count fallback decisions (the run summary reports them). */
  fallbacks?: { fallbacks: number };
  /**
   * Where to read a file that parameter `param` names as `path` (default: `path` resolved
   * against the working directory). Reruns of a log map a recorded relative path to the
   * file with the recorded sha256 (beside the log, or a `--network-file` override). Worlds
   * that read files named by parameters should read them through it.
   */
  resolvePath?: InputFileResolver;
}

/**
 * Maps a file path a parameter names to the file to read (see {@link WorldSetup.resolvePath}).
 * For a folder, `record` names the key under which the world records its files' sha256
 * (`inputs.<group>.<record>: {file: sha256}`; default `param`): a rerun then reads the
 * recorded folder only when each file so named is absent from it or has its recorded hash.
 */
export type InputFileResolver = (param: string, path: string, record?: string) => string;

/** A private item of one agent (goal, secret...), for prompt audits. */
export interface PrivateItem {
  /** The agent it belongs to, or -1 for the environment (text only the judge may see). */
  owner: number;
  kind: string;
  text: string;
  /** Agents the world's visibility rules allow to see it anyway (e.g. mindreaders): declared, not leaks. */
  visibleTo?: number[];
}

/** A world built for one run. */
export interface WorldInstance<P = unknown> {
  /** Population size. */
  size: number;
  /** The agents' statechart. */
  agents: AgentMachine;
  /**
   * The executor of the agents. Default: `columnar` when the agent machine compiles to a
   * transition table and declares no JSON memory, `xstate` otherwise (see `chooseExecutor`).
   * Declare it only to insist (a declared `columnar` the machine does not allow is an error).
   */
  executor?: 'columnar' | 'xstate';
  /** Decides one agent's step. */
  policy: Policy<P>;
  /** Answers an encounter another agent opened with this one (see docs/ENCOUNTERS.md). */
  respond?: Responder<P>;
  /**
   * When an agent steps twice in one tick (async activation), whether its second step
   * draws fresh random numbers (default true). False repeats the tick's draws, as every
   * run before encounters did: only for reproducing such runs.
   */
  freshRepeats?: boolean;
  network?: Topology;
  /**
   * Who acts when: a built-in policy's name, the name of one the world registers in
   * `WorldDefinition.turnPolicies`, or a policy object.
   */
  turnPolicy: TurnPolicy | TurnPolicyName | (string & {});
  /**
   * Which states are passive and how often the others wake under `async` (docs/TIME.md).
   * Without it, `async` wakes every agent at rate 1 whatever its state.
   */
  activation?: Activation;
  /** Default delivery latency in ticks (default 1). */
  latency?: number;
  /**
   * Applied to every delivery before it reaches an agent: one rule, or named rules in order
   * (full logs name the rule that withheld each delivery). Rules read the current network
   * from their context.
   */
  visibility?: Visibility;
  /** Channels and their members. */
  channels?: Record<string, number[]>;
  /** Sets the initial state at tick 0 (seeds, planted items, first messages). */
  init?(control: WorldControl): void;
  /** Per-tick metrics (numbers only; they go into every tick line of the log). `previous` is the last tick's. */
  metrics?(view: WorldView, previous: Readonly<Record<string, number>> | undefined): Record<string, number>;
  /** Returns a reason to stop after this tick, or null to go on. */
  stop?(view: WorldView): string | null;
  /** Final summary, from the per-tick metric history. */
  summary?(history: readonly Record<string, number>[], view: WorldView): Record<string, Json>;
  /**
   * Applies a world-specific intervention (a type the engine does not know). Return false
   * for unknown types; throw a ConfigError for bad fields.
   */
  intervene?(intervention: { type: string; [key: string]: Json }, control: WorldControl): boolean;
  /** World-level mutable state as plain JSON, for snapshots (worlds whose closures change). */
  getState?(): Json;
  /** Restores {@link WorldInstance.getState}. */
  setState?(state: Json): void;
  /** Agents' private texts: a prompt audit checks that no other agent's prompt holds them. */
  privateItems?: PrivateItem[];
  /** Files the world read (path and sha256), recorded in the log header. */
  inputs?: Record<string, Json>;
}

/** A network generator parameter of `networkFromParams` (besides `n` and a file network's `networkFile`). */
export type NetworkGeneratorParam = 'k' | 'beta' | 'm' | 'blocks' | 'pIn' | 'pOut';

/**
 * A world: parameters with defaults, and how to build it. Without a type argument it is
 * any world: every result of {@link defineWorld} is one as it is (a list of worlds, a
 * loader, `runWorld`), while the world's own code keeps its parameters' types.
 */
export interface WorldDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly kind: 'grapevine-world';
  /** Short id, e.g. `rumor`. */
  id: string;
  /** Semantic version of the world's behaviour; recorded in logs. */
  version: string;
  description: string;
  /** Parameters: a zod object whose fields have defaults and `.describe()` texts. */
  params: S;
  /** True if the world's agents call an LLM (the CLI then provides one). */
  needsLlm?: boolean;
  /** The default number of ticks when the user gives none. */
  defaultTicks?: number;
  /**
   * The parameters this world hands to its network generator (`networkFromParams`), named
   * as there. A value the user gives for one that the chosen `network` ignores (`beta` with
   * `network=erdos-renyi`) is refused by run and sweep, see `checkNetworkParamsApplied`.
   */
  networkParams?: readonly NetworkGeneratorParam[];
  /**
   * The parameters read only when the world is built (population, network, roles, turn
   * policy...): a fork, which continues a world already built, refuses to change them. Every
   * other parameter is read while the run goes on (through `ctx.params`), and a fork's
   * `--set` applies it from the fork tick. Without the list, a fork builds the world both
   * ways to find out.
   */
  fixedAtCreation?: readonly (keyof z.infer<S> & string)[];
  /**
   * The parameters that name files the world reads, and when it reads them: a run refuses a
   * file the settings never read, and the parameters a file makes unused (`n` and the network
   * parameters when the file gives the network).
   */
  fileParams?: FileParamDeclarations<z.infer<S>>;
  /**
   * What each per-tick metric means (label, unit, kind, item, group): reports and the viewer
   * draw every declared metric with its label and unit, whatever its key.
   */
  metrics?: MetricDeclarations;
  /** Turn policies of the world's own, by name, which its instances may name in `turnPolicy`. */
  turnPolicies?: Readonly<Record<string, TurnPolicyEntry>>;
  create(setup: WorldSetup<z.infer<S>>): WorldInstance<z.infer<S>>;
  /**
   * Makes parameters recorded by an older version of this world (`fromVersion`) select that
   * version's behaviour, for replays, forks, resumes and inspections of old logs. It may
   * only add parameters: the log of such a run keeps recording the old parameter set and
   * version. Without it, a log of another version does not rerun.
   */
  migrateParams?(params: Record<string, unknown>, fromVersion: string): Record<string, unknown>;
}

/** Declares a world. A user's world file exports the result (as `world`). */
export function defineWorld<S extends z.ZodObject>(
  def: Omit<WorldDefinition<S>, 'kind'>,
): WorldDefinition<S> {
  return { kind: 'grapevine-world', ...def };
}

/** True if `x` was made by {@link defineWorld}. */
export function isWorldDefinition(x: unknown): x is WorldDefinition {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'grapevine-world';
}
