// The public API of grapevine: what `import { … } from 'grapevine'` gives a world author or
// a library user. Each name is listed on purpose (as xstate's packages/core/src/index.ts
// does); everything else under src/ is internal and may change without notice. Worlds,
// built-in ones included, import only from here.

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
// The CLI's extension point: worlds and commands an application hands to `grapevine`, and
// what a contributed command shares with the engine's own (output, progress, flags, counters).
export type { AnswerExtractor, CliContribution, CliIo } from './cli/cli-contribution.ts';
export type { CommandOutput } from './cli/command-output.ts';
export { PROCESS_OUTPUT } from './cli/command-output.ts';
export { describeCounters } from './cli/describe-counters.ts';
export { positiveIntFlag } from './cli/flags.ts';
export type { ProgressOptions } from './cli/progress.ts';
export { Progress } from './cli/progress.ts';
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
// Reading input files safely (added with docs/SECURITY.md): a world that reads a file a
// parameter names reads it through these, so a FIFO, a device or a /proc file is refused and
// the size is held to the memory budget.
export type { ErrorOptions, InputFileOptions, Json, LogPosition, StreamState } from './core/index.ts';
export {
  ConfigError,
  canonicalJson,
  DivergenceError,
  ENGINE_VERSION,
  GrapevineError,
  isGrapevineError,
  LogFormatError,
  Rng,
  RngStreams,
  RunError,
  readInputFile,
  readInputText,
  SeededStream,
  StepRng,
  sha256Hex,
  UsageError,
  WorldNotFoundError,
} from './core/index.ts';
// LLM agents: the port, structured replies, the wrapped model stack, the local test server.
export type {
  ChatMessage,
  FallbackCounter,
  LenientParse,
  LlmCallRecord,
  LlmConfig,
  LlmCounters,
  LlmEndpoint,
  LlmFlags,
  LlmParams,
  LlmPort,
  LlmReplay,
  LlmReply,
  LlmRequest,
  LlmSession,
  LlmSessionOptions,
  LocalLlmServer,
  LocalServerOptions,
  RecordSink,
  RunLlm,
  SharedLlm,
  StructuredOptions,
  StructuredResult,
  TokenLogprob,
  TokenUsage,
} from './llm/index.ts';
export {
  BudgetExceededError,
  decideStructured,
  LlmCallError,
  openLlm,
  openSharedLlm,
  ParentTailPort,
  parseJsonLenient,
  RecordingPort,
  ReplayMismatchError,
  replayLlm,
  resolveLlmConfig,
  startLocalLlmServer,
} from './llm/index.ts';
// Memory of LLM agents: a stream of observations, recall by recency, importance, relevance.
export type {
  MemoryEntry,
  MemoryKind,
  MemoryStreamState,
  NewMemory,
  RecallOptions,
  RelevanceScorer,
  RetrievalWeights,
} from './memory/index.ts';
export {
  EmbeddingRelevance,
  emptyMemory,
  estimateTokens,
  fitToBudget,
  formatMemories,
  LexicalRelevance,
  recall,
  recallAsync,
  remember,
} from './memory/index.ts';
// Analysis of logs: prompt audits and the text normalisation private items are matched with.
export type { AuditBreach, AuditFinding, AuditReport } from './metrics/index.ts';
export { auditPrompts, normalizeText } from './metrics/index.ts';
// Networks: generators, loaders, graphology conversion.
export type {
  BarabasiAlbertParams,
  CompleteParams,
  EdgeListCsvOptions,
  ErdosRenyiParams,
  LoadedNetwork,
  NetworkKind,
  NetworkSpec,
  RingLatticeParams,
  StochasticBlockModelParams,
  Topology,
  WattsStrogatzParams,
  WorldNetworkParams,
} from './network/index.ts';
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
  networkSpecSchema,
  ringLattice,
  stochasticBlockModel,
  toGraphology,
  wattsStrogatz,
} from './network/index.ts';
// Replay logs: write a run's log, read one, rerun it.
export type { LogHeader, RecordedRun, RerunOptions } from './replay/index.ts';
export { LOG_FORMAT, LogWriter, readLog, readRecordedRun, rerunLog } from './replay/index.ts';
// Statistics for analysing runs and studies (library-backed; see src/stats).
export type {
  BootstrapOptions,
  EstimateCi,
  McNemarResult,
  MeanCi,
  PairedTTestResult,
  ProportionCi,
} from './stats/index.ts';
export {
  averageBy,
  bootstrapCi,
  holm,
  mcnemar,
  meanCi,
  pairedTTest,
  studentTCdf,
  studentTQuantile,
  wilson,
} from './stats/index.ts';
// Validation of models against their published results (grapevine validate).
// Sweeps: parameter grids × replicates on a pool of worker threads (docs/SWEEPS.md).
export type {
  RunFailure,
  RunOutcome,
  RunPoolOptions,
  RunTask,
  SweepOptions,
  SweepResult,
  SweepSpec,
  WorldLocator,
} from './sweep/index.ts';
export { latinHypercube, planSweep, RunPool, runSeed, runSweep } from './sweep/index.ts';
export type { BatteryOptions, ValidationCase, ValidationOutcome, ValidationRow } from './validate/index.ts';
export { formatBattery, judgeFrequency, judgeMean, replicateStats, runBattery } from './validate/index.ts';
export type {
  AliennessReport,
  CompareOptions,
  CompareReport,
  CompareRow,
  DiversityRow,
  EmbeddingConfig,
  EmbeddingDistanceCi,
  FactorEffect,
  GapError,
  GeneralizationReport,
  GroupError,
  HumanDistribution,
  MetricScore,
  Observation,
  SurveyAnswer,
  SycophancyReport,
  Turn,
  VarianceDecomposition,
  Variant,
} from './validity/index.ts';
export {
  ALIENNESS_RULES,
  alienness,
  bias,
  checkEmbeddingFlags,
  compareAnswers,
  distinctN,
  diversity,
  embeddingConfigOf,
  embedTexts,
  generalization,
  jensenShannon,
  meanPairwiseCosineDistance,
  meanPairwiseCosineDistanceCi,
  readAnswersFile,
  readHumanFile,
  renderCompareHtml,
  splitItems,
  sycophancy,
  totalVariation,
  transcriptFromLog,
  varianceDecomposition,
  wasserstein1,
} from './validity/index.ts';
// Worlds: define one, check one, run one, intervene.
export type {
  EngineIntervention,
  InputFileResolver,
  Intervention,
  LogLevel,
  PrivateItem,
  RunLog,
  RunOptions,
  RunResult,
  WorldDefinition,
  WorldInstance,
  WorldSetup,
} from './world/index.ts';
export {
  blockModelParams,
  checkWorld,
  defineWorld,
  describeParams,
  InputBuffer,
  interventionSchema,
  isWorldDefinition,
  networkKinds,
  parseIntervention,
  resolveParams,
  runWorld,
  WorldControl,
  WorldView,
  worldDefinitionProblems,
  worldInstanceProblems,
} from './world/index.ts';
