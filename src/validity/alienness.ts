import {
  AI_IDENTITY_PHRASES,
  ALIENNESS_RULES,
  POLITENESS_MARKERS,
  REFUSAL_PHRASES,
} from './alienness-rules.ts';

/** One turn of a conversation. */
export interface Turn {
  /** Who speaks (a name, or an agent id). */
  speaker: string;
  text: string;
}

/** What {@link alienness} measures over transcripts. */
export interface AliennessReport {
  turns: number;
  wordsPerTurn: number;
  /** Mean over turns (turns with no trigram count as 0). */
  selfRepetition: number;
  partnerRepetition: number;
  /** Shares of turns. */
  aiIdentity: number;
  refusal: number;
  identityConfusion: number;
  /** Markers per 100 words. */
  politenessPer100Words: number;
  /** The rules, written out. */
  rules: typeof ALIENNESS_RULES;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
}

function trigrams(w: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= w.length; i++) out.push(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phraseRe(phrases: readonly string[]): RegExp {
  return new RegExp(`(^|[^\\p{L}])(${phrases.map(escapeRe).join('|')})(?![\\p{L}])`, 'giu');
}

const AI = phraseRe(AI_IDENTITY_PHRASES);
const REFUSAL = phraseRe(REFUSAL_PHRASES);
const POLITE = phraseRe(POLITENESS_MARKERS);

function count(re: RegExp, text: string): number {
  return text.match(re)?.length ?? 0;
}

/** True when `text` has the speaker naming itself as `other` (see ALIENNESS_RULES). */
export function speaksAs(text: string, other: string): boolean {
  const o = escapeRe(other.trim());
  if (o === '') return false;
  const re = new RegExp(
    `(^\\s*${o}\\s*:)|\\b(i am|i'm|my name is|this is) ${o}\\b|(^|[.!?]\\s+)${o} here\\b`,
    'iu',
  );
  return re.test(text);
}

function overlap(grams: string[], seen: Set<string>): number {
  if (grams.length === 0) return 0;
  let k = 0;
  for (const g of grams) if (seen.has(g)) k++;
  return k / grams.length;
}

/**
 * Markers of talk that does not read like people (Anthis et al. 2025's "alienness"): words
 * per turn, self- and partner-repetition, AI-identity and refusal phrases, identity
 * confusion and over-politeness, by the rules in {@link ALIENNESS_RULES}. Each transcript is
 * one conversation; its speakers are the names whose identity another speaker must not take.
 */
export function alienness(transcripts: readonly (readonly Turn[])[]): AliennessReport {
  let turns = 0;
  let wordCount = 0;
  let self = 0;
  let partner = 0;
  let ai = 0;
  let refusal = 0;
  let confusion = 0;
  let polite = 0;
  for (const t of transcripts) {
    const speakers = [...new Set(t.map((x) => x.speaker))];
    const own = new Map<string, Set<string>>();
    for (const turn of t) {
      const w = words(turn.text);
      const g = trigrams(w);
      const mine = own.get(turn.speaker) ?? new Set<string>();
      const others = new Set<string>();
      for (const [s, set] of own) if (s !== turn.speaker) for (const x of set) others.add(x);
      self += overlap(g, mine);
      partner += overlap(g, others);
      for (const x of g) mine.add(x);
      own.set(turn.speaker, mine);
      turns++;
      wordCount += w.length;
      if (count(AI, turn.text) > 0) ai++;
      if (count(REFUSAL, turn.text) > 0) refusal++;
      if (speakers.some((s) => s !== turn.speaker && speaksAs(turn.text, s))) confusion++;
      polite += count(POLITE, turn.text);
    }
  }
  const per = (x: number) => (turns === 0 ? Number.NaN : x / turns);
  return {
    turns,
    wordsPerTurn: per(wordCount),
    selfRepetition: per(self),
    partnerRepetition: per(partner),
    aiIdentity: per(ai),
    refusal: per(refusal),
    identityConfusion: per(confusion),
    politenessPer100Words: wordCount === 0 ? Number.NaN : (100 * polite) / wordCount,
    rules: ALIENNESS_RULES,
  };
}
