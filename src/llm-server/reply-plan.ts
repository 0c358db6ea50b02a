import type { PromptFacts } from './prompt-facts.ts';
import type { RequestDice } from './request-dice.ts';

/** What the responder decided to do; rendered as text, JSON or a tool call. */
export interface ReplyPlan {
  /** Chosen action, one of the allowed ones (`speak` when none are listed). */
  action: string;
  /** Addressee: the latest other speaker, or a contact. */
  to?: string;
  /** The in-character line (empty for a passive action such as `none`). */
  text: string;
  /** The `You know:` item passed on verbatim, if any. */
  sharedItem?: string;
  /** The agent's own name, when the prompt gives one. */
  name?: string;
  /** The persona line, when the prompt gives one. */
  persona?: string;
}

/** Where an action name falls: doing nothing, talking to one agent, or to everyone. */
export type ActionClass = 'passive' | 'directed' | 'broadcast';

const PASSIVE = /^(none|no[-_ ]?op|wait|pass|idle|skip|silent|stay[-_ ]silent|listen|observe|ignore|leave)$/i;
const DIRECTED = /^(dm|whisper|reply|message|tell|direct|private|private[-_ ]message|respond|gossip)$/i;

/** Classifies an action name (unknown names count as broadcast). */
export function classifyAction(action: string): ActionClass {
  if (PASSIVE.test(action)) return 'passive';
  if (DIRECTED.test(action)) return 'directed';
  return 'broadcast';
}

/** Probability of passing on a `You know:` item in a turn. */
export const SHARE_PROBABILITY = 0.5;

/**
 * Decides the reply: the addressee, the action (about 10% passive when a passive action
 * is allowed, about 45% directed when there is someone to address), and the line, which
 * greets the addressee by name, names the agent, passes on one known item verbatim with
 * probability {@link SHARE_PROBABILITY}, and states the goal.
 *
 * @param actionChoices Allowed actions; when the reply schema has an `action` enum, the
 *   caller passes the enum (narrowed to the prompt's list when both exist).
 * @param targetChoices Allowed addressees from a schema `to` enum, if any.
 */
export function planReply(
  facts: PromptFacts,
  dice: RequestDice,
  actionChoices: readonly string[],
  targetChoices: readonly string[] = [],
): ReplyPlan {
  const speaker = latestSpeaker(facts);
  const to = chooseTarget(facts, dice, speaker, targetChoices);
  const action = chooseAction(actionChoices.length > 0 ? actionChoices : ['speak'], dice, to !== undefined);
  const kind = classifyAction(action);
  const sharedItem =
    facts.known.length > 0 && dice.chance('share', SHARE_PROBABILITY)
      ? dice.pick('share-item', facts.known)
      : undefined;
  const plan: ReplyPlan = { action, text: '', name: facts.name, persona: facts.persona };
  if (kind === 'directed') plan.to = to;
  if (kind === 'passive') return plan;
  plan.sharedItem = sharedItem;
  plan.text = composeLine(facts, dice, kind === 'directed' ? to : speaker, sharedItem);
  return plan;
}

function latestSpeaker(facts: PromptFacts): string | undefined {
  const self = facts.name?.toLowerCase();
  for (let i = facts.recent.length - 1; i >= 0; i--) {
    const who = facts.recent[i].speaker;
    const lower = who.toLowerCase();
    if (lower !== self && lower !== 'you' && lower !== 'me') return who;
  }
  return undefined;
}

function chooseTarget(
  facts: PromptFacts,
  dice: RequestDice,
  speaker: string | undefined,
  targetChoices: readonly string[],
): string | undefined {
  const pool = targetChoices.length > 0 ? targetChoices : facts.contacts;
  if (speaker !== undefined && (pool.length === 0 || includesName(pool, speaker)))
    return pool.find((p) => p.toLowerCase() === speaker.toLowerCase()) ?? speaker;
  const others = pool.filter((p) => p.toLowerCase() !== facts.name?.toLowerCase());
  return others.length > 0 ? dice.pick('target', others) : undefined;
}

function includesName(pool: readonly string[], name: string): boolean {
  return pool.some((p) => p.toLowerCase() === name.toLowerCase());
}

function chooseAction(allowed: readonly string[], dice: RequestDice, hasTarget: boolean): string {
  const byClass = (c: ActionClass) => allowed.filter((a) => classifyAction(a) === c);
  const passive = byClass('passive');
  const directed = hasTarget ? byClass('directed') : [];
  const broadcast = byClass('broadcast');
  const active = [...directed, ...broadcast];
  if (active.length === 0) return passive.length > 0 ? dice.pick('action-pick', passive) : allowed[0];
  const u = dice.unit('action');
  if (passive.length > 0 && u < 0.1) return dice.pick('action-pick', passive);
  if (directed.length > 0 && (broadcast.length === 0 || u < 0.55)) return dice.pick('action-pick', directed);
  return dice.pick('action-pick', broadcast);
}

function composeLine(
  facts: PromptFacts,
  dice: RequestDice,
  addressee: string | undefined,
  item: string | undefined,
): string {
  const parts: string[] = [];
  if (addressee) parts.push(dice.pick('opener', OPENERS)(addressee));
  else if (facts.name || facts.goal || facts.known.length > 0) parts.push(dice.pick('greeting', GREETINGS));
  if (facts.name) parts.push(dice.pick('self', SELF)(facts.name));
  if (item) parts.push(dice.pick('share-form', SHARES)(sentence(item)));
  if (facts.goal) parts.push(dice.pick('goal', GOALS)(goalClause(facts.goal)));
  if (parts.length === 0) parts.push(fallbackLine(facts.lastUserText));
  return parts.join(' ');
}

const OPENERS = [
  (who: string) => `${who}, I hear you.`,
  (who: string) => `Thanks, ${who}.`,
  (who: string) => `${who}, that is interesting.`,
  (who: string) => `Good point, ${who}.`,
];
const GREETINGS = ['Hello, everyone.', 'Hi all.', 'Listen, everyone.'];
const SELF = [
  (n: string) => `${n} here.`,
  (n: string) => `It's ${n}.`,
  (n: string) => `This is ${n} speaking.`,
];
const SHARES = [
  (item: string) => `Have you heard? ${item}`,
  (item: string) => `Word is: ${item}`,
  (item: string) => `Between us: ${item}`,
];
const GOALS = [
  (goal: string) => `I am trying to ${goal}.`,
  (goal: string) => `My aim is simple: to ${goal}.`,
  (goal: string) => `Remember, I want to ${goal}.`,
];

/** `item` with a final full stop when it has no sentence-ending punctuation. */
function sentence(item: string): string {
  return /[.!?…]["')\]]?$/.test(item) ? item : `${item}.`;
}

/** `"To find the thief."` -> `"find the thief"`. */
function goalClause(goal: string): string {
  const g = goal
    .replace(/^(you want to|your goal is to|i want to|to)\s+/i, '')
    .replace(/[.!?\s]+$/, '')
    .trim();
  return /^[A-Z][a-z]/.test(g) ? g[0].toLowerCase() + g.slice(1) : g;
}

function fallbackLine(lastUserText: string): string {
  const snippet = lastUserText.replace(/\s+/g, ' ').trim().slice(0, 80);
  return snippet ? `Noted: "${snippet}".` : 'Hello.';
}
