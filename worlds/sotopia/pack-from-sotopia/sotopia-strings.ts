import {
  type FoundString,
  isName,
  isOp,
  type PythonSource,
  SourceShapeError,
  type Span,
  stringsReturned,
} from './python-source.ts';

/** Sotopia's files the extractor reads, relative to the checkout (tag `agent_vs_storyteller_v1`). */
export const SOTOPIA_FILES = {
  generate: 'sotopia/generation_utils/generate.py',
  messages: 'sotopia/messages/message_classes.py',
  evaluators: 'sotopia/envs/evaluators.py',
  parallel: 'sotopia/envs/parallel.py',
  agent: 'sotopia/agents/llm_agent.py',
} as const;

/** The parsed source files the extractor reads. */
export interface SotopiaSources {
  generate: PythonSource;
  messages: PythonSource;
  evaluators: PythonSource;
  parallel: PythonSource;
  agent: PythonSource;
  /** LangChain's `format_instructions.py`, when the user gives it. */
  langchain?: PythonSource;
}

/** The file of LangChain that holds `PYDANTIC_FORMAT_INSTRUCTIONS` (langchain 0.0.x, as Sotopia pinned). */
export const LANGCHAIN_FILE = 'langchain/output_parsers/format_instructions.py';

/**
 * The strings a `match` statement returns per case (`case "none": return "did nothing"`);
 * a case listing several patterns (`case "a" | "b":`) gives each of them the same string.
 */
export function caseReturns(span: Span): Record<string, FoundString> {
  const out: Record<string, FoundString> = {};
  const t = span.tokens;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c.kind !== 'name' || c.value !== 'case') continue;
    const labels: string[] = [];
    let j = i + 1;
    for (; j < t.length; j++) {
      const x = t[j];
      if (x.kind === 'string' && !x.fstring)
        labels.push(x.parts.map((p) => ('text' in p ? p.text : '')).join(''));
      else if (x.kind === 'op' && x.value === ':') break;
    }
    const rest: Span = { ...span, tokens: t.slice(j + 1, j + 8) };
    const returned = stringsReturned(rest)[0];
    if (!returned) throw new SourceShapeError(`${span.label}: case ${labels.join(' | ')} returns no string`);
    for (const l of labels) out[l] = returned;
  }
  return out;
}

/** The type named by the annotation of `field` in a class body (`agent_1_evaluation: Model`). */
export function annotatedType(span: Span, field: string): string {
  const t = span.tokens;
  const k = t.findIndex((x, i) => isName(x, field) && isOp(t[i + 1], ':') && isName(t[i + 2]));
  const type = t[k + 2];
  if (k < 0 || type?.kind !== 'name')
    throw new SourceShapeError(`${span.label} has no field ${field} with a model type`);
  return type.value;
}

/** The f-strings of a span, in order. */
export function fstrings(span: Span): FoundString[] {
  return span.tokens.flatMap((t) =>
    t.kind === 'string' && t.fstring ? [{ parts: t.parts, fstring: true, raw: t.raw }] : [],
  );
}

/** Whether a found string has a field whose expression (spaces removed) is `expr`. */
export function hasField(s: FoundString, expr: string): boolean {
  return s.parts.some((p) => 'expr' in p && p.expr.replace(/\s+/g, '') === expr);
}
