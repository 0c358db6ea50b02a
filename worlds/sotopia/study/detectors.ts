import { parseMarkup } from '../markup.ts';
import type { SotopiaEnvironment } from '../records.ts';
import type { TurnRecord } from '../transcript.ts';

/** The Sotopia source of Craigslist-style bargaining scenarios. */
export const CRAIGSLIST_SOURCE = 'craigslist_bargains';
/** The Sotopia source of MutualFriends-style scenarios. */
export const MUTUAL_FRIENDS_SOURCE = 'mutual_friends';

/** The deal rule, as written into the report. */
export const DEAL_RULE =
  'A Craigslist episode ends in a deal when some turn after the first contains an acceptance in a sentence that is not a question ' +
  '("deal" as the whole sentence, "it\'s/that\'s a deal", "we/you have (got) a deal", "you\'ve got yourself a deal", "I accept", ' +
  '"accepted", "I agree to", "agreed", "sold", "I\'ll take it"), not negated (no "no", "not", "never", "cannot" or "n\'t" among ' +
  'the three words before it), after a price ("$N" or "N dollars/bucks") was mentioned in an earlier turn. Both sides must agree: ' +
  'the accepted price was last named by the other character, or both characters have accepted. The deal turn is the first such ' +
  'turn; the agreed price is the last price in that turn, else the price in force. Where it falls: (price - buyer target) / ' +
  '(seller target - buyer target), the targets read from the goals ("buyer"/"seller" and the first $ amount): 0 = the ' +
  "buyer's target, 1 = the seller's.";

/** The first-mention rule, as written into the report. */
export const MENTION_RULE =
  "The shared friends of a MutualFriends scenario are the names listed in both characters' extra_info friend lists " +
  '("Name: attribute ..." lines; compared case-insensitively), or, if none is listed in both, the names of the ' +
  'environment-only "common friends:" note. The first mention is the first turn whose text contains a shared name as a ' +
  'whole word (case-insensitive); its relative position is turn number / number of turns (in (0, 1]); an episode without a ' +
  'mention counts towards the mention rate only.';

/** What {@link detectDeal} found. */
export interface DealOutcome {
  deal: boolean;
  /** 1-based turn of the acceptance, or null. */
  turn: number | null;
  /** The last price mentioned up to the acceptance, or null. */
  price: number | null;
}

const ACCEPTANCE = [
  /^deal$/,
  /\b(?:it'?s|that'?s|it is|that is) a deal\b/,
  /\b(?:we|you)(?: have|'ve| got|'ve got| have got) (?:a|yourself a) deal\b/,
  /\bi accept\b/,
  /\baccepted\b/,
  /\bi agree to\b/,
  /\bagreed\b/,
  /\bsold\b/,
  /\bi'?ll take it\b/,
  /\bi will take it\b/,
];
const NEGATION = /\b(?:no|not|never|cannot|can'?t|won'?t|don'?t|didn'?t|isn'?t|wasn'?t|haven'?t)\b|n't\b/;
const PRICE = /\$\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s?(?:dollars|bucks)\b/gi;

function normalizeQuotes(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
}

/** Sentences of a text with whether each is a question (ends with `?`). */
function sentences(text: string): { text: string; question: boolean }[] {
  const out: { text: string; question: boolean }[] = [];
  for (const m of normalizeQuotes(text).matchAll(/[^.!?\n]+[.!?]*/g)) {
    const s = m[0].trim();
    if (s === '') continue;
    out.push({ text: s.replace(/[.!?]+$/, '').trim(), question: s.endsWith('?') });
  }
  return out;
}

function acceptsIn(sentence: string): boolean {
  const s = sentence
    .replace(/[,;:"()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const re of ACCEPTANCE) {
    const m = re.exec(s);
    if (!m) continue;
    const before = s.slice(0, m.index).trim().split(' ').slice(-3).join(' ');
    if (!NEGATION.test(before)) return true;
  }
  return false;
}

/** Prices mentioned in a text, in order. */
export function pricesIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(PRICE)) {
    const n = Number((m[1] ?? m[2]).replace(/,/g, ''));
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

/** Whether a bargaining transcript ends in a deal both sides agreed to, by {@link DEAL_RULE}. */
export function detectDeal(transcript: readonly TurnRecord[]): DealOutcome {
  let price: number | null = null;
  let namedBy = -1;
  const accepted = [false, false];
  for (const [k, t] of transcript.entries()) {
    const prices = pricesIn(t.text);
    const side = t.speaker === 1 ? 1 : 0;
    if (k > 0 && price !== null && sentences(t.text).some((s) => !s.question && acceptsIn(s.text))) {
      accepted[side] = true;
      if (namedBy === 1 - side || accepted[1 - side])
        return { deal: true, turn: t.turn, price: prices.length > 0 ? prices[prices.length - 1] : price };
    }
    if (prices.length > 0) {
      price = prices[prices.length - 1];
      namedBy = side;
    }
  }
  return { deal: false, turn: null, price: null };
}

/** The buyer's and the seller's target prices of a bargaining scenario (from the goals), or null. */
export function priceTargets(
  env: Pick<SotopiaEnvironment, 'agent_goals'>,
): { buyer: number; seller: number } | null {
  let buyer: number | null = null;
  let seller: number | null = null;
  for (const goal of env.agent_goals) {
    const price = pricesIn(goal)[0];
    if (price === undefined) continue;
    if (/\bbuyer\b/i.test(goal)) buyer = price;
    else if (/\bseller\b/i.test(goal)) seller = price;
  }
  return buyer !== null && seller !== null && buyer !== seller ? { buyer, seller } : null;
}

/** Where an agreed price falls between the targets: 0 at the buyer's, 1 at the seller's. */
export function pricePosition(price: number, targets: { buyer: number; seller: number }): number {
  return (price - targets.buyer) / (targets.seller - targets.buyer);
}

/** Friend names of a MutualFriends goal's `<extra_info>` list ("Name: School: ..."). */
export function friendNames(goal: string): string[] {
  let info = '';
  try {
    info = parseMarkup(goal)
      .filter((s) => s.tags.includes('extra_info'))
      .map((s) => s.text)
      .join('\n');
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const line of info.split('\n')) {
    const m = /^\s*([A-Z][\p{L}'.-]*(?: [A-Z][\p{L}'.-]*)*):\s+\S/u.exec(line);
    if (m && !/^you know/i.test(m[1])) names.push(m[1]);
  }
  return names;
}

/** The friends both characters of a MutualFriends scenario know, by {@link MENTION_RULE}. */
export function sharedFriends(env: Pick<SotopiaEnvironment, 'agent_goals' | 'scenario'>): string[] {
  const [a, b] = env.agent_goals.map(friendNames);
  const other = new Set((b ?? []).map((n) => n.toLowerCase()));
  const shared = [...new Set((a ?? []).filter((n) => other.has(n.toLowerCase())))];
  if (shared.length > 0) return shared;
  const note = /common friends?:\s*([^.<]+)/i.exec(env.scenario);
  return note
    ? note[1]
        .split(/,|\band\b/)
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];
}

/** What {@link firstMention} found. */
export interface MentionOutcome {
  /** 1-based turn of the first mention, or null. */
  turn: number | null;
  /** turn / number of turns, or null. */
  position: number | null;
  /** The name mentioned first, or null. */
  name: string | null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first turn naming one of `names` (whole word, case-insensitive), by {@link MENTION_RULE}. */
export function firstMention(transcript: readonly TurnRecord[], names: readonly string[]): MentionOutcome {
  const patterns = names.map(
    (n) => [n, new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?![\\p{L}\\p{N}])`, 'iu')] as const,
  );
  for (const t of transcript) {
    const hit = patterns.find(([, re]) => re.test(t.text));
    if (hit) return { turn: t.turn, position: t.turn / transcript.length, name: hit[0] };
  }
  return { turn: null, position: null, name: null };
}
