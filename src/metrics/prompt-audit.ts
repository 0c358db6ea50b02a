import unhomoglyph from 'unhomoglyph';
import { ConfigError, LogFormatError } from '../core/index.ts';
import { readLog } from '../replay/index.ts';
import type { PrivateItem } from '../world/index.ts';

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
}

/**
 * Format characters that are invisible in print (soft hyphen, zero-width space and joiners,
 * word joiner, byte-order mark, Mongolian vowel separator): removed before comparing, so a
 * secret split by one still matches.
 */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;

/**
 * How texts are compared: NFKC (fullwidth and compatibility forms to their plain letters),
 * invisible format characters removed, lowercase, letters and digits only, every character
 * mapped to its Unicode TR39 confusables skeleton (`unhomoglyph`, from Unicode's
 * confusables.txt: a Cyrillic `а` and a Latin `a` become the same), single spaces. The result is for comparing, not
 * for reading (`m` becomes `rn`).
 */
export function normalizeText(s: string): string {
  // punctuation first (the skeleton maps some of it to letters); the skeleton before and after
  // lowercasing, since it differs by case (a Greek capital Eta is an H, its small form no h)
  const words = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, ' ');
  const plain = words(s.normalize('NFKC').replace(INVISIBLE, ''));
  return words(unhomoglyph(unhomoglyph(plain).toLowerCase()).toLowerCase()).trim();
}

/**
 * Checks every recorded prompt of a run for other agents' private texts (goals, secrets).
 * A private text in agent A's prompt is allowed only if A had observed a message that
 * carried it (someone chose to say it); anything else is a leak. Needs a `--log full` log,
 * whose `send` and `observe` events say what each agent saw; a full log written with
 * `addressees` also names each delivery a visibility rule withheld, and the audit reports
 * them per rule, names the rule a leaked text went around, and flags any message an agent
 * observed although a rule withheld it from that agent (a breach).
 */
export async function auditPrompts(path: string, privates: readonly PrivateItem[]): Promise<AuditReport> {
  const items = privates.map((p) => ({ ...p, norm: normalizeText(p.text) })).filter((p) => p.norm.length > 0);
  // A text an agent owns itself is never a leak in its own prompt, even when another agent
  // owns the same text (two agents with the same goal).
  const owned = new Map<number, Set<string>>();
  for (const p of items) owned.set(p.owner, (owned.get(p.owner) ?? new Set()).add(p.norm));
  const said = new Map<number, string>();
  const seen = new Map<number, string[]>();
  const withheld = new WithheldDeliveries();
  const report: AuditReport = { prompts: 0, findings: [], leaks: [], withheld: {}, breaches: [] };
  for await (const line of readLog(path)) {
    const e = line.event;
    if (line.seq === 0 && e.level !== 'full') {
      throw new ConfigError(
        `${path} is a "${String(e.level)}" log; the audit needs what each agent observed`,
        { hint: 'rerun the world with --log full' },
      );
    }
    if (line.type === 'send')
      said.set(
        Number(e.id),
        normalizeText(String((e.payload as { text?: unknown } | undefined)?.text ?? '')),
      );
    if (line.type === 'withheld') withheld.add(Number(e.id), e.to as number[], String(e.rule), said);
    if (line.type === 'observe') {
      const agent = Number(e.agent);
      const list = seen.get(agent) ?? [];
      for (const id of e.msgs as number[]) {
        list.push(said.get(id) ?? '');
        const rule = withheld.ruleFor(agent, id);
        if (rule) report.breaches.push({ seq: line.seq, tick: line.t, agent, message: id, rule });
      }
      seen.set(agent, list);
    }
    if (line.type !== 'llm' || !/^\d+$/.test(String(e.caller))) continue;
    report.prompts++;
    const caller = Number(e.caller);
    const prompt = normalizeText(promptText(e.messages, path, line.line));
    const own = owned.get(caller);
    for (const p of items) {
      if (p.owner === caller || own?.has(p.norm) || !prompt.includes(p.norm)) continue;
      const declared = p.visibleTo?.includes(caller) ?? false;
      const observed = !declared && (seen.get(caller) ?? []).some((t) => t.includes(p.norm));
      const allowed = declared || observed;
      const finding: AuditFinding = {
        seq: line.seq,
        tick: line.t,
        caller,
        owner: p.owner,
        kind: p.kind,
        text: p.text,
        allowed,
        ...(allowed ? { basis: declared ? ('declared' as const) : ('observed' as const) } : {}),
      };
      if (!allowed) {
        const rule = withheld.textRule(caller, p.norm);
        if (rule) finding.withheldBy = rule;
        report.leaks.push(finding);
      }
      report.findings.push(finding);
    }
  }
  report.withheld = withheld.counts;
  return report;
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
