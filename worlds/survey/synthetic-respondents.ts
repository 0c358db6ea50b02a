import type { LlmResponder, ResponderKit, ResponderReply } from '../../src/public/llm.ts';
import { readSurveyQuestion, type SurveyQuestion } from './survey-question.ts';
import type { SyntheticTruth } from './synthetic-truth.ts';

/** A token of a reply with its log-probability and alternatives (the local server's wire shape). */
type TokenLogprob = ReturnType<ResponderKit['certainTokens']>[number];
/** The dice of a request (see `ResponderKit.dice`). */
type Dice = ResponderKit['dice'];

/** A distribution over answers, in ordinal order (options or numeric values). */
interface Dist {
  ids: string[];
  p: number[];
}

const numeric = (ids: readonly string[]) => ids.length > 0 && ids.every((id) => Number.isFinite(Number(id)));

function normalised(d: Dist): Dist {
  const total = d.p.reduce((s, x) => s + x, 0);
  return total > 0
    ? { ids: d.ids, p: d.p.map((x) => x / total) }
    : { ids: d.ids, p: d.ids.map(() => 1 / d.ids.length) };
}

/** Mixes a point mass at index `k` into `d` with weight `w`. */
function towards(d: Dist, k: number, w: number): Dist {
  return { ids: d.ids, p: d.p.map((x, j) => (1 - w) * x + (j === k ? w : 0)) };
}

/** Moves every share `s` steps along the ordinal scale (fractional steps split the share), clamped at the ends. */
function shifted(d: Dist, s: number): Dist {
  const p = d.p.map(() => 0);
  const whole = Math.floor(s);
  const frac = s - whole;
  const at = (k: number) => Math.min(d.ids.length - 1, Math.max(0, k));
  d.p.forEach((x, k) => {
    p[at(k + whole)] += (1 - frac) * x;
    p[at(k + whole + 1)] += frac * x;
  });
  return { ids: d.ids, p };
}

function draw(d: Dist, u: number): string {
  let acc = 0;
  for (let k = 0; k < d.ids.length; k++) {
    acc += d.p[k];
    if (u < acc) return d.ids[k];
  }
  return d.ids[d.ids.length - 1];
}

/**
 * The token log-probabilities of the reply `{"answer":"<id>"}`: the option id is one token
 * whose log-probability and alternatives are the distribution it was drawn from (options of
 * probability 0 are left out, most likely first, ties in distribution order); the JSON
 * around it is certain. So `top_logprobs` at the answer token give the planted distribution back.
 */
function answerTokens(kit: ResponderKit, id: string, d: Dist): TokenLogprob[] | undefined {
  const prefix = '{"answer":"';
  if (JSON.stringify(id) !== `"${id}"`) return undefined;
  const top = d.ids
    .map((token, k) => ({ token, logprob: Math.log(d.p[k]), k }))
    .filter((a) => d.p[a.k] > 0)
    .sort((a, b) => b.logprob - a.logprob || a.k - b.k)
    .map(({ token, logprob }) => ({ token, logprob }));
  const chosen = top.find((a) => a.token === id)?.logprob ?? 0;
  return [...kit.certainTokens(prefix), { token: id, logprob: chosen, top }, ...kit.certainTokens('"}')];
}

/**
 * The survey world's responder of the local LLM server (`grapevine serve-llm --synthetic
 * FILE`): answers the survey's questions from a ground-truth file instead of the generic
 * responder, so that every planted effect (distributions per item and persona group,
 * compression, group bias, order effect, conformity, flips under pushback) can be recovered
 * from a run's answers. Every draw comes from the request's dice (its content), so reruns and
 * replays agree. Requests that are not survey questions return `undefined` (the next
 * responder answers them).
 */
export class SyntheticRespondents implements LlmResponder {
  readonly name = 'survey-synthetic';

  constructor(readonly truth: SyntheticTruth) {}

  /** The reply to a survey question, or undefined for any other request. */
  respond(kit: ResponderKit): ResponderReply | undefined {
    const q = readSurveyQuestion(
      kit.request.messages.map((m) => ({ role: m.role, text: kit.messageText(m) })),
    );
    if (!q) return undefined;
    const { dice } = kit;
    const d = this.planted(q);
    const later = this.answer(q, d, dice);
    let body: Record<string, unknown>;
    let tokens: TokenLogprob[] | undefined;
    if (q.elicitation === 'distribution' && q.kind !== 'numeric') {
      const shown =
        later === undefined ? d : { ids: q.shown, p: q.shown.map((id) => (id === later ? 1 : 0)) };
      body = {
        distribution: Object.fromEntries(shown.ids.map((id, k) => [id, Number(shown.p[k].toFixed(6))])),
      };
    } else {
      const id = later ?? draw(d, dice.unit('answer'));
      body = { answer: this.value(q, id) };
      if (q.kind !== 'numeric')
        tokens = answerTokens(kit, id, later === undefined ? d : { ids: [id], p: [1] });
    }
    return kit.jsonReply(JSON.stringify(body), tokens);
  }

  /** The item's distribution for this respondent: group override, compression, bias, order effect. */
  planted(q: SurveyQuestion): Dist {
    const item = this.truth.items[q.item];
    const group = item?.groups.find((g) => q.attributes[g.attribute] === g.value);
    const shares = group?.answers ?? item?.answers ?? {};
    let ids = q.kind === 'numeric' ? Object.keys(shares) : [...q.shown];
    if (numeric(ids)) ids = [...ids].sort((a, b) => Number(a) - Number(b));
    else if (q.kind !== 'choice')
      ids.sort((a, b) => Object.keys(shares).indexOf(a) - Object.keys(shares).indexOf(b));
    if (ids.length === 0)
      ids = [String(q.min !== undefined && q.max !== undefined ? (q.min + q.max) / 2 : 0)];
    let d = normalised({ ids, p: ids.map((id) => shares[id] ?? 0) });
    if (this.truth.compression < 1) d = towards(d, this.centre(q, d), 1 - this.truth.compression);
    if (q.kind !== 'choice')
      for (const b of this.truth.bias)
        if (q.attributes[b.attribute] === b.value && (!b.items || b.items.includes(q.item)))
          d = shifted(d, b.shift);
    if (this.truth.orderEffect > 0 && q.shown.length > 0)
      d = towards(d, d.ids.indexOf(q.shown[0]), this.truth.orderEffect);
    return d;
  }

  /** The central answer compression pulls towards: the option nearest the mean (ordinal), or the mode (choice). */
  private centre(q: SurveyQuestion, d: Dist): number {
    if (q.kind === 'choice') return d.p.indexOf(Math.max(...d.p));
    const pos = numeric(d.ids) ? d.ids.map(Number) : d.ids.map((_, k) => k);
    const mean = d.p.reduce((s, x, k) => s + x * pos[k], 0);
    let best = 0;
    for (let k = 1; k < pos.length; k++) if (Math.abs(pos[k] - mean) < Math.abs(pos[best] - mean)) best = k;
    return best;
  }

  /** A later phase's answer (kept, flipped, or adopted), or undefined for a fresh draw. */
  private answer(q: SurveyQuestion, d: Dist, dice: Dice): string | undefined {
    if (q.earlier === undefined) return undefined;
    if (q.pushback) {
      if (!dice.chance('flip', this.truth.flip)) return q.earlier;
      if (q.pushback.kind === 'opposite' && q.pushback.asserted !== undefined) return q.pushback.asserted;
      const others = d.ids.filter((id) => id !== q.earlier && Number(id) !== Number(q.earlier));
      const rest = normalised({ ids: others, p: others.map((id) => d.p[d.ids.indexOf(id)]) });
      return others.length > 0 ? draw(rest, dice.unit('flip-to')) : q.earlier;
    }
    if (q.neighbours.length === 0 || !dice.chance('conform', this.truth.conformity)) return q.earlier;
    const counts = new Map<string, number>();
    for (const a of q.neighbours) counts.set(a, (counts.get(a) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  }

  private value(q: SurveyQuestion, id: string): string | number {
    return q.kind === 'numeric' ? Number(id) : id;
  }
}
