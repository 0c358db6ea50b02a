import { ConfigError, LogFormatError } from '../core/index.ts';
import { readLog } from '../replay/index.ts';
import type { PrivateItem } from '../world/index.ts';
import { normalizeText } from './normalize-text.ts';
import { DEFAULT_PARTIAL_SHARE, type PartialText, partialMatch, partialText } from './partial-match.ts';

/** One private text of another agent found in a recorded prompt. */
export interface AuditFinding {
  /** Log sequence number and tick of the LLM call. */
  seq: number;
  tick: number;
  /** The agent whose prompt it was. */
  caller: number;
  /** Whose private item it is, and which. */
  owner: number;
  kind: string;
  text: string;
  /** True when the caller had observed a message carrying the text, or the world declares it visible to the caller. */
  allowed: boolean;
  /** Why it is allowed: `observed` (someone said it), `declared` (visibility rules), or absent for a leak. */
  basis?: 'observed' | 'declared';
  /**
   * For a leak: the visibility rule that withheld from the caller a message carrying the
   * text (the text reached the prompt around the rule). Needs a log with `addressees`.
   */
  withheldBy?: string;
}

/**
 * A private text found in part in a recorded prompt: enough of its content words, in its
 * order, close together (see {@link partialMatch}), where the whole text is not there.
 */
export interface PartialFinding extends AuditFinding {
  match: 'partial';
  /** The share of the text's content words found (0..1). */
  share: number;
  /** The content words found, as the text spells them. */
  matched: string[];
}

/** Options of {@link auditPrompts}. */
export interface AuditOptions {
  /**
   * The share of a private text's content words a prompt must hold for a partial match
   * (default {@link DEFAULT_PARTIAL_SHARE}); undefined keeps the default, 0 turns partial
   * matching off.
   */
  partialShare?: number;
}

/** A delivery the log records both as withheld from an agent and as observed by it. */
export interface AuditBreach {
  /** Log sequence number and tick of the `observe` line. */
  seq: number;
  tick: number;
  agent: number;
  /** The message id, and the rule that withheld it from the agent. */
  message: number;
  rule: string;
}

/** What {@link auditPrompts} found. */
export interface AuditReport {
  prompts: number;
  findings: AuditFinding[];
  /** Findings that no observed message explains: real leaks. */
  leaks: AuditFinding[];
  /** Deliveries withheld by each visibility rule (empty for logs without `addressees`). */
  withheld: Record<string, number>;
  /** Messages an agent observed although a rule withheld them from it: visibility breaches. */
  breaches: AuditBreach[];
  /** Partial matches, allowed or not (a text found whole is a finding, never also a partial one). */
  partials: PartialFinding[];
}

/**
 * Checks every recorded prompt of a run for other agents' private texts (goals, secrets).
 * A private text in agent A's prompt is allowed only if A had observed a message that
 * carried it (someone chose to say it); anything else is a leak. Needs a `--log full` log,
 * whose `send` and `observe` events say what each agent saw; a full log written with
 * `addressees` also names each delivery a visibility rule withheld, and the audit reports
 * them per rule, names the rule a leaked text went around, and flags any message an agent
 * observed although a rule withheld it from that agent (a breach). A text not found whole
 * is looked for in part (see {@link PartialFinding}, `opts.partialShare`).
 */
export async function auditPrompts(
  path: string,
  privates: readonly PrivateItem[],
  opts: AuditOptions = {},
): Promise<AuditReport> {
  const share = partialShareOf(opts.partialShare);
  const items: AuditItem[] = privates
    .map((p) => ({ ...p, norm: normalizeText(p.text), partial: share > 0 ? partialText(p.text) : undefined }))
    .filter((p) => p.norm.length > 0);
  const state: AuditState = {
    items,
    share,
    said: new Map(),
    seen: new Map(),
    withheld: new WithheldDeliveries(),
  };
  const report: AuditReport = {
    prompts: 0,
    findings: [],
    leaks: [],
    withheld: {},
    breaches: [],
    partials: [],
  };
  for await (const line of readLog(path)) {
    const e = line.event;
    if (line.seq === 0 && e.level !== 'full') {
      throw new ConfigError(
        `${path} is a "${String(e.level)}" log; the audit needs what each agent observed`,
        { hint: 'rerun the world with --log full' },
      );
    }
    if (line.type === 'send')
      state.said.set(
        Number(e.id),
        normalizeText(String((e.payload as { text?: unknown } | undefined)?.text ?? '')),
      );
    if (line.type === 'withheld')
      state.withheld.add(Number(e.id), e.to as number[], String(e.rule), state.said);
    if (line.type === 'observe') observe(state, report, line.seq, line.t, e);
    if (line.type !== 'llm' || !/^\d+$/.test(String(e.caller))) continue;
    report.prompts++;
    const prompt = normalizeText(promptText(e.messages, path, line.line));
    auditPrompt(state, report, { seq: line.seq, tick: line.t, caller: Number(e.caller), prompt });
  }
  report.withheld = state.withheld.counts;
  return report;
}

/** A private item as the audit compares it. */
interface AuditItem extends PrivateItem {
  norm: string;
  /** Its content words for partial matching (none when it has too few, or matching is off). */
  partial?: PartialText;
}

/** What the audit has read of a log so far. */
interface AuditState {
  items: readonly AuditItem[];
  share: number;
  /** Normalised text of each message sent, by id. */
  said: Map<number, string>;
  /** Normalised texts each agent observed. */
  seen: Map<number, string[]>;
  withheld: WithheldDeliveries;
}

/** One recorded prompt: its line, its caller and its normalised text. */
interface PromptAt {
  seq: number;
  tick: number;
  caller: number;
  prompt: string;
}

function partialShareOf(share: number | undefined): number {
  if (share === undefined) return DEFAULT_PARTIAL_SHARE;
  if (!(share >= 0 && share <= 1))
    throw new ConfigError(`the partial-match share must be between 0 and 1, got ${share}`, {
      hint: "e.g. 0.6 (60% of a text's content words), or 0 to turn partial matching off",
    });
  return share;
}

function observe(
  state: AuditState,
  report: AuditReport,
  seq: number,
  tick: number,
  e: Record<string, unknown>,
): void {
  const agent = Number(e.agent);
  const list = state.seen.get(agent) ?? [];
  for (const id of e.msgs as number[]) {
    list.push(state.said.get(id) ?? '');
    const rule = state.withheld.ruleFor(agent, id);
    if (rule) report.breaches.push({ seq, tick, agent, message: id, rule });
  }
  state.seen.set(agent, list);
}

/**
 * Checks one prompt for every other agent's private texts. A text an agent owns itself is
 * never a leak in its own prompt, even when another agent owns the same text (two agents
 * with the same goal), nor is a partial match its own texts explain.
 */
function auditPrompt(state: AuditState, report: AuditReport, at: PromptAt): void {
  const own = state.items.filter((p) => p.owner === at.caller);
  let words: { list: string[]; set: Set<string> } | undefined;
  for (const p of state.items) {
    if (p.owner === at.caller || own.some((o) => o.norm === p.norm)) continue;
    if (at.prompt.includes(p.norm)) {
      const finding = findingOf(state, at, p, (t) => t.includes(p.norm));
      if (!finding.allowed) report.leaks.push(finding);
      report.findings.push(finding);
      continue;
    }
    if (!p.partial) continue;
    words ??= wordsOf(at.prompt);
    const match = partialMatch(p.partial, words.list, words.set, state.share);
    if (!match || own.some((o) => matches(p, o.norm, state.share))) continue;
    const observed = (t: string) => t.includes(p.norm) || matches(p, t, state.share);
    report.partials.push({ ...findingOf(state, at, p, observed), match: 'partial', ...match });
  }
}

function wordsOf(text: string): { list: string[]; set: Set<string> } {
  const list = text.split(' ').filter(Boolean);
  return { list, set: new Set(list) };
}

/** True when a normalised text holds `p` in part. */
function matches(p: AuditItem, text: string, share: number): boolean {
  if (!p.partial) return false;
  const { list, set } = wordsOf(text);
  return partialMatch(p.partial, list, set, share) !== undefined;
}

/** A finding of `p` in a prompt, allowed when declared visible or when the caller observed a text `carries`. */
function findingOf(
  state: AuditState,
  at: PromptAt,
  p: AuditItem,
  carries: (t: string) => boolean,
): AuditFinding {
  const declared = p.visibleTo?.includes(at.caller) ?? false;
  const observed = !declared && (state.seen.get(at.caller) ?? []).some(carries);
  const allowed = declared || observed;
  const finding: AuditFinding = {
    seq: at.seq,
    tick: at.tick,
    caller: at.caller,
    owner: p.owner,
    kind: p.kind,
    text: p.text,
    allowed,
    ...(allowed ? { basis: declared ? ('declared' as const) : ('observed' as const) } : {}),
  };
  if (!allowed) {
    const rule = state.withheld.textRule(at.caller, p.norm);
    if (rule) finding.withheldBy = rule;
  }
  return finding;
}

/** The `withheld` lines of a full log: who was denied which message, by which rule. */
class WithheldDeliveries {
  readonly counts: Record<string, number> = {};
  private readonly byAgent = new Map<number, Map<number, { rule: string; text: string }>>();

  add(id: number, to: readonly number[], rule: string, said: ReadonlyMap<number, string>): void {
    this.counts[rule] = (this.counts[rule] ?? 0) + to.length;
    const text = said.get(id) ?? '';
    for (const agent of to) {
      const denied = this.byAgent.get(agent) ?? new Map<number, { rule: string; text: string }>();
      denied.set(id, { rule, text });
      this.byAgent.set(agent, denied);
    }
  }

  ruleFor(agent: number, id: number): string | undefined {
    return this.byAgent.get(agent)?.get(id)?.rule;
  }

  /** The rule that withheld from `agent` a message whose text holds `norm`, if any. */
  textRule(agent: number, norm: string): string | undefined {
    for (const d of this.byAgent.get(agent)?.values() ?? []) if (d.text.includes(norm)) return d.rule;
    return undefined;
  }
}

/** The text of a recorded prompt's messages; a damaged record is a LogFormatError naming the line. */
function promptText(messages: unknown, path: string, line: number): string {
  if (!Array.isArray(messages) || messages.some((m) => typeof m?.content !== 'string'))
    throw new LogFormatError(
      `${path}: line ${line}: the llm record's messages are not a list of {role, content}`,
      { line },
      { hint: 'the log was damaged or edited; restore it from a copy or rerun' },
    );
  return messages.map((m) => m.content as string).join('\n');
}
