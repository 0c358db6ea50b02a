/** A chat message as the question reader sees it: its role and its text. */
export interface MessageText {
  role: string;
  text: string;
}

/**
 * A survey question as the survey world writes it (`prompt.ts`): the lines
 * `Respondent:`, `Attributes: k=v; ...`, `Survey item:`, `Item kind:`, `Options (in this
 * order):` then `- id: label` lines, `Range: a to b`, `Elicitation:`, and in later phases
 * `Your earlier answer:`, `- Respondent N: answer` lines, `Pushback: disagree|opposite X`.
 */
export interface SurveyQuestion {
  respondent: string;
  attributes: Record<string, string>;
  item: string;
  kind: 'choice' | 'likert' | 'numeric';
  /** Option ids in the order shown (empty for numeric items). */
  shown: string[];
  min?: number;
  max?: number;
  elicitation: 'sample' | 'distribution';
  earlier?: string;
  /** Neighbours' answers (discussion phase). */
  neighbours: string[];
  pushback?: { kind: 'disagree' | 'opposite'; asserted?: string };
}

const KEY = /^([A-Z][A-Za-z ]*): (.*)$/;

function scan(messages: readonly MessageText[]): {
  keys: Map<string, string>;
  shown: string[];
  neighbours: string[];
} {
  const keys = new Map<string, string>();
  let shown: string[] = [];
  let neighbours: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') continue;
    let block: 'options' | 'neighbours' | null = null;
    for (const line of m.text.split('\n')) {
      if (line.startsWith('Options (in this order):')) [block, shown] = ['options', []];
      else if (line.startsWith('Your neighbours answered:')) [block, neighbours] = ['neighbours', []];
      const option = block === 'options' ? /^- ([^:]+):/.exec(line) : null;
      const neighbour = block === 'neighbours' ? /^- Respondent \d+: (.+)$/.exec(line) : null;
      if (option) shown.push(option[1]);
      else if (neighbour) neighbours.push(neighbour[1]);
      else if (!line.endsWith(':')) block = null;
      const key = KEY.exec(line);
      if (key) keys.set(key[1], key[2]);
    }
  }
  return { keys, shown, neighbours };
}

function attributesOf(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of line.split('; ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** Reads the survey question of a chat request's messages, or null when the prompt is not one. */
export function readSurveyQuestion(messages: readonly MessageText[]): SurveyQuestion | null {
  const { keys, shown, neighbours } = scan(messages);
  const item = keys.get('Survey item');
  const kind = keys.get('Item kind');
  if (!item || (kind !== 'choice' && kind !== 'likert' && kind !== 'numeric')) return null;
  const q: SurveyQuestion = {
    respondent: keys.get('Respondent') ?? '',
    attributes: attributesOf(keys.get('Attributes') ?? ''),
    item,
    kind,
    shown: kind === 'numeric' ? [] : shown,
    elicitation: keys.get('Elicitation') === 'distribution' ? 'distribution' : 'sample',
    neighbours,
  };
  const range = /^(\S+) to (\S+)$/.exec(keys.get('Range') ?? '');
  if (range && Number.isFinite(Number(range[1]))) q.min = Number(range[1]);
  if (range && Number.isFinite(Number(range[2]))) q.max = Number(range[2]);
  const earlier = keys.get('Your earlier answer');
  if (earlier !== undefined) q.earlier = earlier;
  const pushback = /^(disagree|opposite)(?: (.+))?$/.exec(keys.get('Pushback') ?? '');
  if (pushback)
    q.pushback = {
      kind: pushback[1] as 'disagree' | 'opposite',
      ...(pushback[2] === undefined ? {} : { asserted: pushback[2] }),
    };
  return q;
}
