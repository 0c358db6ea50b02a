// `grapevine`: what a world file imports. Each name is listed on purpose (as xstate's
// packages/core/src/index.ts does): defining a world, its agents' statechart and policy,
// messages and who sees them, turn policies, seeded randomness, errors, networks, and running
// a world. The rest of the public API is in the subpath entries of src/public/
// (grapevine/llm, grapevine/replay, grapevine/analysis, grapevine/sweep, grapevine/cli);
// everything else under src/ is internal and may change without notice. Worlds, built-in
// ones included, import only from these entries.

/** zod, re-exported so that world files need no other import to declare parameters. */
export { z } from 'zod';

// Agents: the statechart a world declares, and the one window an agent acts through.
export type {
  AgentMachine,
  AgentMachineSpec,
  Column,
  Decision,
  MemorySlotSpec,
  MemoryType,
  Policy,
  RegionSpec,
  RegionStateSpec,
  Responder,
  StepContext,
} from './agent/index.ts';
export { defineAgentMachine } from './agent/index.ts';
// Messages and who sees them.
export type {
  Address,
  Inbox,
  Message,
  NamedVisibilityRule,
  OutgoingMessage,
  Route,
  Visibility,
  VisibilityContext,
  VisibilityRule,
} from './bus/index.ts';
// Turn policies (who acts when), and what a custom one schedules with.
export type {
  ClockEvent,
  EventQueue,
  TurnContext,
  TurnPolicy,
  TurnPolicyName,
  TurnPolicyOptions,
} from './clock/index.ts';
export { createTurnPolicy, PRIORITY, TURN_POLICY_NAMES } from './clock/index.ts';
// Continuous time (docs/TIME.md): a world's activation (passive states, wake rates) and the
// entry of a turn policy a world adds to the registry.
export type { TurnPolicyEntry } from './clock/turn-policy-registry.ts';
// Errors, seeded randomness, canonical JSON and hashing.
// Reading input files safely (docs/SECURITY.md): a world that reads a file a parameter names
// reads it through these, so a FIFO, a device or a /proc file is refused and the size is held
// to the memory budget.
export type { ErrorOptions, Json } from './core/index.ts';
export {
  ConfigError,
  canonicalJson,
  GrapevineError,
  isGrapevineError,
  Rng,
  RngStreams,
  RunError,
  readInputFile,
  readInputText,
  sha256Hex,
  UsageError,
} from './core/index.ts';
// Networks: generators, loaders, graphology conversion, the network parameters of a world.
export type { NetworkSpec, Topology, WorldNetworkParams } from './network/index.ts';
export {
  barabasiAlbert,
  CsrTopology,
  complete,
  erdosRenyi,
  fromGraphology,
  generateNetwork,
  loadEdgeListCsv,
  loadGraphologyJson,
  networkFromParams,
  ringLattice,
  stochasticBlockModel,
  toGraphology,
  wattsStrogatz,
} from './network/index.ts';
export type { Activation } from './world/activation.ts';
// Worlds: define one, run one, intervene.
export type {
  InputFileResolver,
  Intervention,
  MetricDeclarations,
  PrivateItem,
  RunOptions,
  RunResult,
  WorldDefinition,
  WorldInstance,
  WorldSetup,
} from './world/index.ts';
export {
  blockModelParams,
  defineWorld,
  networkKinds,
  runWorld,
  WorldControl,
  WorldView,
} from './world/index.ts';
