// `grapevine/llm`: LLM agents and the model behind them. What a world whose agents call an
// LLM imports (the port, structured replies, the memory stream), and what a script or a
// contributed command needs to give runs a model (one factory, shared by runs, recorded and
// replayed, and the local OpenAI-compatible server that tests and offline demos use).

// The port a world's agents call, structured replies, and the errors of a call.
// The wrapped model: configured from flags, opened once, shared by runs, every call recorded
// into the run's inputs, replayed from a log.
// The local OpenAI-compatible server: deterministic replies, injectable latency and faults.
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
  LocalEndpoint,
  LocalEndpointStarter,
  RecordSink,
  RunLlm,
  SharedLlm,
  StructuredOptions,
  StructuredResult,
  TokenLogprob,
  TokenUsage,
} from '../llm/index.ts';
export {
  BudgetExceededError,
  decideStructured,
  LlmCallError,
  openLlm,
  openSharedLlm,
  parseJsonLenient,
  RecordingPort,
  ReplayMismatchError,
  replayLlm,
  resolveLlmConfig,
  withServerModel,
} from '../llm/index.ts';
// The shipped local LLM server, and the responders a world contributes to it for its own prompts.
export type {
  ChatRequest,
  FieldRole,
  LlmResponder,
  LocalLlmServer,
  LocalServerOptions,
  ResponderKit,
  ResponderReply,
} from '../llm-server/index.ts';
export { startLocalLlmServer } from '../llm-server/index.ts';
// What an LLM agent remembers: a stream of observations, recalled by recency, importance, relevance.
export type {
  MemoryEntry,
  MemoryKind,
  MemoryStreamState,
  NewMemory,
  RecallOptions,
  RelevanceScorer,
  RetrievalWeights,
} from '../memory/index.ts';
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
} from '../memory/index.ts';
export { InputBuffer } from '../world/index.ts';
