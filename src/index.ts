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
// Errors, seeded randomness, canonical JSON and hashing.
export type { ErrorOptions, Json } from './core/index.ts';
export {
  ConfigError,
  canonicalJson,
  GrapevineError,
  isGrapevineError,
  Rng,
  RngStreams,
  RunError,
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

// Continuous time (docs/TIME.md): a world's activation (passive states, wake rates), the
// event-driven policy behind `async`, and the registry of turn policies a world may add to.

export { NextReactionPolicy } from './clock/next-reaction-policy.ts';
export type { EventDrivenTurnPolicy } from './clock/turn-policy.ts';
export { isEventDriven } from './clock/turn-policy.ts';
export type { TurnPolicyEntry } from './clock/turn-policy-registry.ts';
export { TURN_POLICIES, TurnPolicyRegistry } from './clock/turn-policy-registry.ts';
export type { Activation } from './world/activation.ts';
