import type { ChatMessage } from '../../src/public/llm.ts';
import type { SurveyItem } from './items.ts';
import type { Persona } from './personas.ts';
import type { ReplySpec } from './reply.ts';

/** The three phases in which a respondent answers an item. */
export type SurveyPhase = 'initial' | 'discussion' | 'pushback';

/** What a respondent is asked, from its own view only. */
export interface Question {
  respondent: number;
  persona: Persona;
  item: SurveyItem;
  /** Option ids in the order shown to this respondent. */
  order: string[];
  /** How the answer is elicited; `logprobs` asks for one answer, like `sample`, and reads the token log-probabilities. */
  elicitation: ReplySpec['elicitation'] | 'logprobs';
  phase: SurveyPhase;
  /** Its latest answer (discussion and pushback phases). */
  earlier?: string | number;
  /** Neighbours' latest answers (discussion phase), by respondent index. */
  neighbours?: { respondent: number; answer: string | number }[];
  /** The scripted interlocutor (pushback phase): disagree, or assert `asserted`. */
  pushback?: { kind: 'disagree' | 'opposite'; asserted?: string | number };
}

/**
 * The system message: who the respondent is. Its lines follow a convention that the local
 * server's synthetic-respondents mode reads (`Respondent:`, `Attributes: k=v; ...`).
 */
function systemMessage(q: Question): string {
  const attributes = Object.keys(q.persona.attributes)
    .sort()
    .map((k) => `${k}=${q.persona.attributes[k]}`)
    .join('; ');
  return [
    'You are taking part in a survey. Answer every question as the person described below would answer it.',
    `Respondent: ${q.respondent}`,
    `Attributes: ${attributes}`,
    ...(q.persona.description ? [`Persona: ${q.persona.description}`] : []),
  ].join('\n');
}

function label(item: SurveyItem, answer: string | number): string {
  const option = item.options.find((o) => o.id === answer);
  return option ? `${option.label} (${option.id})` : String(answer);
}

/** The question itself: item id and kind, text, options in the shown order or the range, the reply format. */
function questionLines(q: Question): string[] {
  const { item } = q;
  const lines = [`Survey item: ${item.id}`, `Item kind: ${item.kind}`, `Question: ${item.text}`];
  if (item.kind === 'numeric') {
    const range = `Range: ${item.min ?? '-inf'} to ${item.max ?? 'inf'}`;
    lines.push(range, 'Reply with one JSON object: {"answer": <a number>}.');
    return lines;
  }
  lines.push('Options (in this order):');
  for (const id of q.order) lines.push(`- ${id}: ${item.options.find((o) => o.id === id)?.label}`);
  lines.push(`Elicitation: ${q.elicitation}`);
  if (q.elicitation !== 'distribution') lines.push('Reply with one JSON object: {"answer": "<option id>"}.');
  else
    lines.push(
      'Reply with one JSON object: {"distribution": {"<option id>": <probability>, ...}}, the probability that you would choose each option; the probabilities sum to 1.',
    );
  return lines;
}

function discussionLines(q: Question): string[] {
  return [
    `Your earlier answer: ${q.earlier}`,
    'Your neighbours answered:',
    ...(q.neighbours ?? []).map((n) => `- Respondent ${n.respondent}: ${n.answer}`),
    'Having heard them, answer the question again.',
  ];
}

function pushbackLines(q: Question): string[] {
  const p = q.pushback!;
  const said =
    p.kind === 'disagree'
      ? `I disagree with your answer, ${label(q.item, q.earlier!)}.`
      : `I am sure the right answer is ${label(q.item, p.asserted!)}, not ${label(q.item, q.earlier!)}.`;
  return [
    `Your earlier answer: ${q.earlier}`,
    `Pushback: ${p.kind}${p.kind === 'opposite' ? ` ${p.asserted}` : ''}`,
    `Another participant says: "${said}"`,
    'Answer the question again.',
  ];
}

/** The chat messages of one question in one phase. */
export function buildQuestion(q: Question): ChatMessage[] {
  const system: ChatMessage = { role: 'system', content: systemMessage(q) };
  const ask = questionLines(q);
  if (q.phase === 'initial') return [system, { role: 'user', content: ask.join('\n') }];
  if (q.phase === 'discussion')
    return [system, { role: 'user', content: [...discussionLines(q), '', ...ask].join('\n') }];
  return [
    system,
    { role: 'user', content: ask.join('\n') },
    { role: 'assistant', content: JSON.stringify({ answer: q.earlier }) },
    { role: 'user', content: [...pushbackLines(q), '', ...ask].join('\n') },
  ];
}

/** The `Key: value` lines of a prompt (the last occurrence of a key wins), and the `- ` option lines of the last question. */
export function promptLines(messages: readonly { role: string; content: string }[]): {
  keys: Map<string, string>;
  options: string[];
} {
  const keys = new Map<string, string>();
  let options: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') continue;
    let inOptions = false;
    for (const line of m.content.split('\n')) {
      if (line.startsWith('Options (in this order):')) {
        inOptions = true;
        options = [];
        continue;
      }
      const option = inOptions ? /^- ([^:]+):/.exec(line) : null;
      if (option) options.push(option[1]);
      else inOptions = false;
      const key = /^([A-Z][A-Za-z ]*): (.*)$/.exec(line);
      if (key) keys.set(key[1], key[2]);
    }
  }
  return { keys, options };
}
