/**
 * One recorded answer of one simulated respondent to one survey item: the unit every
 * validity function reads. The survey world's `surveyAnswersFromLog` makes these from a log;
 * {@link readAnswersFile} reads them from a CSV or NDJSON file.
 */
export interface SurveyAnswer {
  agent: string;
  item: string;
  /** Persona attributes, e.g. `{ gender: 'female' }`. */
  group: Record<string, string>;
  kind: 'choice' | 'likert' | 'numeric';
  /** Option id (choice/likert) or number (numeric). */
  answer: string | number;
  /** Elicited probability per option (elicitation=distribution|logprobs). */
  distribution?: Record<string, number>;
  phase: 'initial' | 'discussion' | 'pushback';
  optionOrder?: string[];
}
