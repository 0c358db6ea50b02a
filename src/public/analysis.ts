// `grapevine/analysis`: analysing runs and studies. Statistics, validation of models against
// their published results, validity measures of LLM agents' answers and texts, and audits of
// the prompts a log recorded.

// Statistics (library-backed; see src/stats), paired experiments included (fork batches,
// sweeps with shared seeds; docs/FORKS.md), and the one way numbers are printed.
export { formatInterval, formatNumber, formatPercent } from '../core/index.ts';
// Prompt audits, and the text normalisation private items are matched with.
export type { AuditBreach, AuditFinding, AuditReport } from '../metrics/index.ts';
export { auditPrompts, normalizeText } from '../metrics/index.ts';
export type {
  BootstrapOptions,
  EstimateCi,
  McNemarResult,
  MeanCi,
  PairedComparison,
  PairedComparisonOptions,
  PairedTTestResult,
  ProportionCi,
  SignFlipInterval,
  SignFlipOptions,
  WelchTTestResult,
} from '../stats/index.ts';
export {
  averageBy,
  bootstrapCi,
  holm,
  mcnemar,
  meanCi,
  pairedComparison,
  pairedTTest,
  signFlipInterval,
  studentTCdf,
  studentTQuantile,
  welchTTest,
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
