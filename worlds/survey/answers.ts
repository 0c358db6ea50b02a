import type { SurveyAnswer } from '../../src/public/analysis.ts';
import type { TokenLogprob } from '../../src/public/llm.ts';
import { LogFormatError, readLog } from '../../src/public/replay.ts';
import { logprobShares } from './logprob-shares.ts';
import { promptLines, type SurveyPhase } from './prompt.ts';
import { type ReplySpec, readReply } from './reply.ts';

/** One recorded answer of one respondent to one item in one phase (the engine's type, read by `grapevine compare`). */
export type { SurveyAnswer };

interface LlmLine {
  caller: string;
  purpose: string;
  messages?: unknown;
  reply?: { text: string; logprobs?: TokenLogprob[] } | null;
}

const PURPOSE = /^survey:(initial|discussion|pushback):([^:]+)(?::reask\d+)?$/;
const KINDS = new Set(['choice', 'likert', 'numeric']);

function groupOf(line: string | undefined): Record<string, string> {
  const group: Record<string, string> = {};
  for (const pair of (line ?? '').split('; ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) group[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return group;
}

function bound(text: string | undefined): number | undefined {
  const x = Number(text);
  return text === undefined || !Number.isFinite(x) ? undefined : x;
}

/** What the question asked, read back from its prompt (see prompt.ts for the convention). */
function questionOf(messages: { role: string; content: string }[]) {
  const { keys, options } = promptLines(messages);
  const kind = keys.get('Item kind') as ReplySpec['kind'];
  if (!KINDS.has(kind)) return null;
  const range = /^(\S+) to (\S+)$/.exec(keys.get('Range') ?? '');
  const spec: ReplySpec = {
    kind,
    options,
    elicitation: keys.get('Elicitation') === 'distribution' ? 'distribution' : 'sample',
  };
  const min = bound(range?.[1]);
  const max = bound(range?.[2]);
  if (min !== undefined) spec.min = min;
  if (max !== undefined) spec.max = max;
  return { spec, group: groupOf(keys.get('Attributes')), logprobs: keys.get('Elicitation') === 'logprobs' };
}

/** The answer an `llm` line gives, or null when it holds no valid survey reply. */
function answerOfLine(e: LlmLine): SurveyAnswer | null {
  const purpose = PURPOSE.exec(e.purpose);
  if (!purpose || !e.reply || !Array.isArray(e.messages)) return null;
  const q = questionOf(e.messages as { role: string; content: string }[]);
  if (!q) return null;
  const got = readReply(q.spec, e.reply.text);
  if (!got) return null;
  const out: SurveyAnswer = {
    agent: e.caller,
    item: purpose[2],
    group: q.group,
    kind: q.spec.kind,
    answer: got.answer,
    phase: purpose[1] as SurveyPhase,
  };
  const tokens = e.reply.logprobs;
  const fromTokens =
    q.logprobs && tokens && typeof got.answer === 'string'
      ? logprobShares(q.spec.options, e.reply.text, got.answer, tokens)
      : undefined;
  if (got.distribution ?? fromTokens) out.distribution = got.distribution ?? fromTokens;
  if (q.spec.kind !== 'numeric') out.optionOrder = q.spec.options;
  return out;
}

/**
 * The answers a survey run recorded, read from its log's `llm` lines alone (no world code
 * runs, no model is called): per respondent, item and phase, the last valid reply (a re-ask
 * after an invalid reply replaces it; a question that ended in a fallback has no answer).
 * Group and option order come from the prompt, which shows them. Order: as logged (tick,
 * then respondent, then item order).
 */
export async function surveyAnswersFromLog(logPath: string): Promise<SurveyAnswer[]> {
  const lines = readLog(logPath);
  const answers = new Map<string, SurveyAnswer>();
  let header = true;
  for (;;) {
    const step = await lines.next();
    if (step.done) break;
    const e = step.value.event as unknown as { type: string; world?: { id?: string } } & LlmLine;
    if (header) {
      header = false;
      if (e.world?.id !== 'survey')
        throw new LogFormatError(
          `${logPath} is a log of world "${e.world?.id}", not of the survey world`,
          {},
          { hint: 'give the log of a survey run' },
        );
    }
    if (e.type !== 'llm') continue;
    const answer = answerOfLine(e);
    if (answer) answers.set(`${answer.agent}|${answer.phase}|${answer.item}`, answer);
  }
  return [...answers.values()];
}
