import type { LlmResponder } from '../../src/public/llm.ts';
import { SyntheticRespondents } from './synthetic-respondents.ts';
import { loadSyntheticTruth } from './synthetic-truth.ts';

/**
 * The survey world's responders of the local LLM server: the synthetic respondents when
 * `serve-llm --synthetic FILE` names a ground-truth file (docs/SURVEY.md), else none (the
 * generic responders then answer its questions).
 */
export function surveyResponders(options: Readonly<Record<string, string | undefined>>): LlmResponder[] {
  return options.synthetic ? [new SyntheticRespondents(loadSyntheticTruth(options.synthetic))] : [];
}
