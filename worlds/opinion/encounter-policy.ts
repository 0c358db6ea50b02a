import type { Column, Message, Policy, StepContext, WorldView } from '../../src/index.ts';
import { SLOT } from './machine.ts';
import type { OpinionParams } from './params.ts';
import { sortedOpinions } from './sorted-opinions.ts';
import type { VoterTally } from './voter-tally.ts';

type Ctx = StepContext<OpinionParams>;

/** Kind of the opener's words in a voter encounter (it asks for the partner's opinion). */
export const ASK_KIND = 'ask';
/** Kind of an opinion said in an encounter (Deffuant–Weisbuch opener, or any reply). */
export const SAY_KIND = 'say';

function partner(ctx: Ctx): number {
  return ctx.params.network === 'complete' ? ctx.randomAgent() : ctx.randomNeighbour();
}

/** Moves the agent's opinion to `next` and records how far it moved, through the tally when there is one. */
function moveTo(ctx: Ctx, next: number, tally: VoterTally | null = null): void {
  const dx = Math.abs(next - ctx.slot(SLOT.x));
  if (!tally) {
    ctx.setSlot(SLOT.dx, dx);
    ctx.setSlot(SLOT.x, next);
    return;
  }
  tally.write(ctx, SLOT.dx, dx);
  tally.write(ctx, SLOT.x, next);
}

/**
 * The encounter step; the voter's moves go through `tally` when the world keeps one.
 * Voter model (Clifford & Sudbury 1973; Holley & Liggett 1975): at each wake the agent meets
 * a random neighbour (a random agent when network=complete), which says its opinion, and
 * adopts it. Deffuant–Weisbuch (Deffuant et al. 2000): the agent says its opinion x_i to the
 * partner, who answers with its own x_j (before moving); if |x_i − x_j| < ε both move
 * μ times the difference toward each other, the partner in {@link encounterResponder}.
 */
export function encounterPolicy(tally: VoterTally | null): Policy<OpinionParams> {
  return (ctx) => encounter(ctx, tally);
}

function encounter(ctx: Ctx, tally: VoterTally | null): void {
  const j = partner(ctx);
  if (j < 0) return;
  const x = ctx.slot(SLOT.x);
  if (ctx.params.model === 'voter') {
    const said = ctx.encounter(j, ASK_KIND);
    if (said?.kind === SAY_KIND) moveTo(ctx, said.payload as number, tally);
    return;
  }
  const said = ctx.encounter(j, SAY_KIND, undefined, x);
  if (said?.kind !== SAY_KIND) return;
  const y = said.payload as number;
  moveTo(ctx, Math.abs(x - y) < ctx.params.epsilon ? x + ctx.params.mu * (y - x) : x);
}

/** The partner's side: it says its opinion; under Deffuant–Weisbuch it also moves toward the opener's. */
export const encounterResponder = (ctx: Ctx, said: Message): void => {
  const x = ctx.slot(SLOT.x);
  ctx.reply(SAY_KIND, undefined, x);
  if (ctx.params.model !== 'deffuant-weisbuch' || said.kind !== SAY_KIND) return;
  const y = said.payload as number;
  if (Math.abs(y - x) < ctx.params.epsilon) moveTo(ctx, x + ctx.params.mu * (y - x));
};

/** True when every value equals the first (a scan: the voter's check runs every tick). */
function unanimous(x: Column): boolean {
  for (let i = 1; i < x.length; i++) if (x[i] !== x[0]) return false;
  return true;
}

/**
 * True when no encounter can move an opinion by `tolerance` or more: the sorted opinions
 * split into groups wherever consecutive values are at least ε apart (such agents never
 * interact again), and every group is narrower than `tolerance` (its members move less).
 * The voter model is settled at consensus (every opinion equal), read from `tally`'s counts
 * when the world keeps one.
 */
export function encounterSettled(params: OpinionParams, view: WorldView, tally: VoterTally | null): boolean {
  if (params.model === 'voter') {
    const counts = tally?.read(view);
    return counts ? counts.ones === 0 || counts.ones === view.size : unanimous(view.memoryColumn('x'));
  }
  const x = sortedOpinions(view);
  if (x.length === 0) return true;
  let start = x[0];
  for (let k = 1; k < x.length; k++) {
    if (x[k] - x[k - 1] >= params.epsilon) start = x[k];
    else if (x[k] - start >= params.tolerance) return false;
  }
  return true;
}
