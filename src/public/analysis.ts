// `grapevine/analysis`: analysing runs and studies. Statistics, validation of models against
// their published results, validity measures of LLM agents' answers and texts, and audits of
// the prompts a log recorded.

// Prompt audits, and the text normalisation private items are matched with.
export type { AuditBreach, AuditFinding, AuditReport } from '../metrics/index.ts';
export { auditPrompts, normalizeText } from '../metrics/index.ts';
// Statistics (library-backed; see src/stats).
export type {
  BootstrapOptions,
  EstimateCi,
  McNemarResult,
  MeanCi,
  PairedTTestResult,
  ProportionCi,
} from '../stats/index.ts';
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
} from '../stats/index.ts';
// Validation cases: a model against its published result (`grapevine validate`).
export type { BatteryOptions, ValidationCase, ValidationOutcome, ValidationRow } from '../validate/index.ts';
export { formatBattery, judgeFrequency, judgeMean, replicateStats, runBattery } from '../validate/index.ts';
// Validity of LLM agents: answers against human distributions, diversity, sycophancy, alienness.
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
} from '../validity/index.ts';
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
} from '../validity/index.ts';
