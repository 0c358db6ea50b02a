import { type Policy, RunError, type WorldView } from '../../src/index.ts';
import { SLOT } from './machine.ts';
import type { OpinionParams } from './params.ts';
import type { VoterTally } from './voter-tally.ts';

function notBinary(i: number, x: number): RunError {
  return new RunError(`voter agent ${i} holds opinion ${x}; the voter model's opinions are 0 or 1`, {
    hint: 'set voter opinions (initial file, interventions) to 0 or 1 only',
  });
}

/**
 * The voter model's rate in its spin-flip form (Liggett 1985, ch. V): agent i changes its
 * opinion at rate d_i^disc / d_i, the share of its neighbours that hold the other opinion
 * (0 for an agent without neighbours). It depends on the neighbours' opinions, so the world
 * declares `activation.neighbours` and the engine asks again whenever a neighbour changes;
 * an intervention or a network edit makes it ask every agent. The count comes from `tally`
 * when it applies, else from a pass over the neighbours.
 * @throws RunError when the agent or a neighbour holds an opinion other than 0 or 1.
 */
export function discordanceRate(tally: VoterTally): (i: number, view: WorldView) => number {
  return (i, view) => {
    const kept = tally.disagreeing(i, view);
    if (kept < 0) return discordantShare(i, view);
    return kept === 0 ? 0 : kept / view.network!.degree(i);
  };
}

/** {@link discordanceRate} read from the neighbours' opinions. */
export function discordantShare(i: number, view: WorldView): number {
  const net = view.network;
  const d = net ? net.degree(i) : 0;
  const ex = view.executor;
  const x = ex.slot(i, SLOT.x);
  if (x !== 0 && x !== 1) throw notBinary(i, x);
  if (d === 0) return 0;
  let disc = 0;
  for (let k = 0; k < d; k++) {
    const j = net!.neighbour(i, k);
    const y = ex.slot(j, SLOT.x);
    if (y !== x) {
      if (y !== 0 && y !== 1) throw notBinary(j, y);
      disc++;
    }
  }
  return disc / d;
}

/**
 * The step of the voter model by discordance: the agent wakes only while some neighbour
 * disagrees ({@link discordantShare}), and then copies a disagreeing neighbour. Opinions are
 * 0 or 1, so every disagreeing neighbour holds the same opinion, 1 − x, and which one is
 * copied changes nothing: the agent takes that opinion without an encounter and without a
 * draw. Its neighbours' rates change with it; the engine asks them again.
 */
export function discordancePolicy(tally: VoterTally): Policy<OpinionParams> {
  return (ctx) => {
    if (ctx.inbox.length > 0)
      throw new RunError(`voter agent ${ctx.agent} received a message; the voter model reads none`, {
        hint: 'send no messages to voter agents: their wakes follow their neighbours, not their mail',
      });
    const x = ctx.slot(SLOT.x);
    tally.write(ctx, SLOT.dx, 1);
    tally.write(ctx, SLOT.x, 1 - x);
  };
}
