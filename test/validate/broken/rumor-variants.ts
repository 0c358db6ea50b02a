import type { Message, StepContext } from '../../../src/index.ts';
import { world } from '../../../worlds/rumor/index.ts';
import { H } from '../../../worlds/rumor/machine.ts';
import { rumorValidationCases } from '../../../worlds/rumor/validation.ts';
import { type BrokenRow, brokenRowOf, filterInbox, withInstance, withParams } from '../variants.ts';

// The broken-variant table of the rumour world's cases: each mutation is a test-only wrapper
// of the public world definition, and the case it targets must fail at seed 1, with its
// battery α and its full budget unless marked quick (docs/VALIDATION.md lists the table).
const RUMOR = world;
const [, ITEM] = H;

type Respond = (ctx: StepContext, said: Message) => void;

/** Tellers never hear "I knew": the responder's reply is swallowed, so spreaders never stop. */
const neverStop = withInstance(RUMOR, (i) => ({
  respond: (ctx: StepContext, said: Message) => {
    const reply = ctx.reply;
    ctx.reply = () => {};
    try {
      (i.respond as unknown as Respond)(ctx, said);
    } finally {
      ctx.reply = reply;
    }
  },
}));

/** A spreader who is told again says nothing: tellers stop only on meeting stiflers. */
const stopOnStiflersOnly = withInstance(RUMOR, (i) => ({
  respond: (ctx: StepContext, said: Message) => {
    if (ctx.in(ITEM.region, ITEM.spreader)) return;
    (i.respond as unknown as Respond)(ctx, said);
  },
}));

const model = (m: string) => withParams(RUMOR, (p) => ({ ...p, model: m }));
const scale = (key: string, f: number) => withParams(RUMOR, (p) => ({ ...p, [key]: (p[key] as number) * f }));

/** 15% of tellings never arrive. */
const lossy = withInstance(RUMOR, (i) => ({
  policy: filterInbox(i.policy, (ctx, k) => ctx.inbox.kindOf(k) !== 'tell' || ctx.rng.chance(0.85)),
}));

/** An agent checks its threshold on the first telling only: later tellings are ignored. */
const firstTellingOnly = withInstance(RUMOR, (i) => ({
  policy: filterInbox(i.policy, (ctx, k) => {
    if (ctx.inbox.kindOf(k) !== 'tell') return true;
    if (ctx.stateOf(ITEM.region) !== ITEM.ignorant) return false;
    for (let j = 0; j < k; j++) if (ctx.inbox.kindOf(j) === 'tell') return false;
    return true;
  }),
}));

const row = brokenRowOf(rumorValidationCases);

/** Each row: the case, the mutation, the broken world, quick or full budget, part of npm test or only of the bench. */
export const RUMOR_ROWS: BrokenRow[] = [
  row('maki-thompson-well-mixed', 'spreaders never stop', neverStop, false, true),
  row('maki-thompson-well-mixed', 'tellers stop only on meeting stiflers', stopOnStiflersOnly, false, true),
  row('daley-kendall-well-mixed', 'spreaders never stop', neverStop, false, true),
  row('daley-kendall-well-mixed', 'spreader pairs never stop', stopOnStiflersOnly, false, true),
  row('maki-thompson-exact-n10', 'Daley–Kendall in its place', model('daley-kendall'), false, true),
  row(
    'daley-kendall-exact-n10',
    'Daley–Kendall implemented as Maki–Thompson',
    model('maki-thompson'),
    false,
    true,
  ),
  row('independent-cascade-er-pc2', 'p × 0.95', scale('p', 0.95), false, true),
  row('independent-cascade-er-pc2', 'adopters lose 15% of their messages', lossy, true, true),
  row('independent-cascade-er-pc0.8', 'p·c = 1.1 (supercritical)', scale('p', 1.375), true, true),
  row('independent-cascade-er-pc0.8', 'p × 1.1', scale('p', 1.1), false, false),
  row('watts-threshold-er-z0.5', 'mean degree × 4 (k misread)', scale('k', 4), true, true),
  row('watts-threshold-er-z10', 'no threshold (φ = 0)', scale('phi', 0), true, true),
  row(
    'watts-threshold-er-z2',
    'φ × 1.5 (degree-3 agents no longer vulnerable)',
    scale('phi', 1.5),
    true,
    true,
  ),
  row('watts-threshold-er-z4', 'φ × 1.5 (outside the window)', scale('phi', 1.5), true, true),
  row('watts-threshold-er-z4', 'adopters lose 15% of their messages', lossy, false, false),
  // message loss is also caught by independent-cascade-er-pc2 in npm test; these two run in the bench
  row('watts-cascade-size-er-z2', 'adopters lose 15% of their messages', lossy, false, false),
  row('watts-cascade-size-er-z4', 'adopters lose 15% of their messages', lossy, true, false),
  row(
    'watts-cascade-size-er-z4',
    'threshold checked on the first telling only',
    firstTellingOnly,
    true,
    true,
  ),
];
