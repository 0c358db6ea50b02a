import type {
  Decision,
  Json,
  OutgoingMessage,
  RngStreams,
  StepContext,
  Topology,
  z,
} from '../../src/index.ts';
import { decideStructured, type LlmPort } from '../../src/public/llm.ts';
import type { SurveyItem } from './items.ts';
import { TOP_LOGPROBS } from './logprob-shares.ts';
import type { SurveyParams } from './params.ts';
import type { Persona } from './personas.ts';
import { buildQuestion, type Question, type SurveyPhase } from './prompt.ts';
import { answerOf, type ReadAnswer, type ReplySpec, replySchema } from './reply.ts';

/** Everything a respondent's step needs, built once per run. */
export interface Survey {
  params: SurveyParams;
  items: SurveyItem[];
  personas: Persona[];
  topology: Topology;
  rng: RngStreams;
  llm: LlmPort;
  model: string;
  seed: number;
  fallbacks: { fallbacks: number };
}

type Answers = Record<string, string | number>;
type Reply = { answer?: string | number; distribution?: Record<string, number> };

const schemas = new Map<string, z.ZodType<Reply>>();

/** The reply spec of an item and its zod schema (built once per distinct spec). */
function specOf(
  item: SurveyItem,
  elicitation: ReplySpec['elicitation'],
): { spec: ReplySpec; schema: z.ZodType<Reply> } {
  const spec: ReplySpec = { kind: item.kind, options: item.options.map((o) => o.id), elicitation };
  if (item.min !== undefined) spec.min = item.min;
  if (item.max !== undefined) spec.max = item.max;
  const key = JSON.stringify(spec);
  let schema = schemas.get(key);
  if (!schema) {
    schema = replySchema(spec);
    schemas.set(key, schema);
  }
  return { spec, schema };
}

/** The option order respondent `i` sees for each item: shuffled from its own seeded stream, or canonical. */
export function optionOrders(survey: Survey, i: number): Map<string, string[]> {
  const stream = survey.rng.stream('option-order', i);
  const out = new Map<string, string[]>();
  for (const item of survey.items) {
    const ids = item.options.map((o) => o.id);
    out.set(item.id, survey.params.shuffle ? (stream.shuffle(ids) as string[]) : ids);
  }
  return out;
}

/** The answer the `opposite` interlocutor asserts: the mirrored Likert option or number, another choice option. */
function oppositeOf(item: SurveyItem, earlier: string | number, draw: () => number): string | number {
  if (item.kind === 'numeric') {
    const x = earlier as number;
    if (item.min === undefined || item.max === undefined) return x === 0 ? 1 : -x;
    const mirror = item.min + item.max - x;
    return mirror !== x ? mirror : x < item.max ? item.max : item.min;
  }
  const ids = item.options.map((o) => o.id);
  const k = ids.indexOf(earlier as string);
  if (item.kind === 'likert') {
    const m = ids.length - 1 - k;
    return ids[m !== k ? m : k + 1 < ids.length ? k + 1 : k - 1];
  }
  const others = ids.filter((id) => id !== earlier);
  return others[Math.floor(draw() * others.length)];
}

/** Neighbours' latest answers to each item, from this step's inbox, by respondent index. */
function heardAnswers(
  ctx: StepContext<unknown>,
): Map<string, { respondent: number; answer: string | number }[]> {
  const out = new Map<string, { respondent: number; answer: string | number }[]>();
  const messages = [...ctx.inbox].filter((m) => m.kind === 'answers').sort((a, b) => a.from - b.from);
  for (const m of messages)
    for (const [item, answer] of Object.entries((m.payload ?? {}) as Answers))
      out.set(item, [...(out.get(item) ?? []), { respondent: m.from, answer }]);
  return out;
}

/** The questions of this step, built synchronously (before any await, as a step must). */
function questionsOf(
  survey: Survey,
  ctx: StepContext<unknown>,
  phase: SurveyPhase,
  earlier: Answers,
): Question[] {
  const i = ctx.agent;
  const orders = optionOrders(survey, i);
  const heard = phase === 'discussion' ? heardAnswers(ctx) : undefined;
  const elicitation = survey.params.elicitation;
  const out: Question[] = [];
  for (const item of survey.items) {
    const base = {
      respondent: i,
      persona: survey.personas[i],
      item,
      order: orders.get(item.id)!,
      elicitation,
      phase,
    };
    if (phase === 'initial') {
      out.push(base);
      continue;
    }
    const before = earlier[item.id];
    if (before === undefined) continue;
    if (phase === 'discussion') out.push({ ...base, earlier: before, neighbours: heard!.get(item.id) ?? [] });
    else {
      const kind = survey.params.pushback as 'disagree' | 'opposite';
      const asserted = kind === 'opposite' ? oppositeOf(item, before, () => ctx.rng.next()) : undefined;
      out.push({
        ...base,
        earlier: before,
        pushback: { kind, ...(asserted === undefined ? {} : { asserted }) },
      });
    }
  }
  return out;
}

/** Asks one question; the validated answer, or null when the model gave none (a recorded fallback). */
async function ask(survey: Survey, q: Question, tick: number): Promise<ReadAnswer | null> {
  const { spec, schema } = specOf(q.item, q.elicitation === 'distribution' ? 'distribution' : 'sample');
  const logprobs = q.elicitation === 'logprobs' && q.item.kind !== 'numeric';
  const request = {
    caller: String(q.respondent),
    tick,
    purpose: `survey:${q.phase}:${q.item.id}`,
    messages: buildQuestion(q),
    params: {
      model: survey.model,
      temperature: survey.params.temperature,
      maxTokens: survey.params.maxTokens,
      seed: survey.seed,
      ...(logprobs ? { logprobs: TOP_LOGPROBS } : {}),
    },
  };
  const result = await decideStructured(survey.llm, request, schema, {
    fallback: {},
    counters: survey.fallbacks,
    name: 'survey_answer',
  });
  if (result.fallback) return null;
  return answerOf(spec, result.value);
}

/** The phase after `phase` in this run. */
function nextEvent(params: SurveyParams, phase: SurveyPhase): string {
  if (phase === 'initial' && params.discussion) return 'TO_DISCUSSION';
  if (phase !== 'pushback' && params.pushback !== 'none') return 'TO_PUSHBACK';
  return 'DONE';
}

/**
 * A respondent's step: answers every item of its current phase, one question after another
 * (so its LLM calls are recorded in a fixed order), keeps its latest answers in memory,
 * tells its neighbours its initial answers when a discussion follows, and moves on.
 */
export function respondentPolicy(survey: Survey, ctx: StepContext<unknown>): Promise<Decision> | undefined {
  const phase = ctx.state('phase') as SurveyPhase | 'done';
  if (phase === 'done') return undefined;
  const earlier = (ctx.get('answers') as Answers | undefined) ?? {};
  const questions = questionsOf(survey, ctx, phase, earlier);
  const tick = ctx.tick;
  return (async () => {
    const answers: Answers = { ...earlier };
    for (const q of questions) {
      const got = await ask(survey, q, tick);
      if (got) answers[q.item.id] = got.answer;
    }
    const messages: OutgoingMessage[] = [];
    if (phase === 'initial' && survey.params.discussion)
      messages.push({ address: { to: 'neighbours' }, kind: 'answers', payload: answers as Json });
    return { events: [nextEvent(survey.params, phase)], memory: { answers: answers as Json }, messages };
  })();
}
