import { type EncounterRecord, Inbox, type Message, type MessageBus } from '../bus/index.ts';
import { RunError } from '../core/index.ts';
import type { StepContext } from './step-context.ts';

/**
 * How an agent answers an encounter: `ctx` is aimed at the responder (its own state,
 * memory and a seeded stream of its own), `said` is what the opener said as the responder
 * hears it. Answer with `ctx.reply(...)`, or say nothing. Synchronous: the opener waits.
 */
export type Responder<P = unknown> = (ctx: StepContext<P>, said: Message) => void;

/**
 * Resolves encounters (see docs/ENCOUNTERS.md): the opener's words go through the bus's
 * visibility rule to the responder, the world's {@link Responder} runs at once on its own
 * context, and its answer goes back through the visibility rule. Nothing else passes
 * between the two. Every encounter is reported to the bus's observers (full logs).
 */
export class EncounterBroker {
  /** Messages heard in encounters so far (counted as deliveries). */
  delivered = 0;
  /** Id of the last opening message (for the opener's action record). */
  lastSaid = -1;
  /**
   * Called with the responder once it has answered and {@link changeCount} moved (its rate may
   * have changed): continuous-time scheduling. Without {@link changeCount} it is called after
   * every answer.
   */
  answered: ((responder: number) => void) | null = null;
  /** The executor's change mark the responder's rate depends on (`AgentExecutor.changeCount` or `stateChangeCount`), when it keeps one. */
  changeCount: (() => number) | null = null;
  private busy = false;
  /** A responder's inbox is empty: what was said is its second argument (never the opener's live inbox view). */
  private readonly none = new Inbox({
    messageAtRow: emptyInbox,
    fromAtRow: emptyInbox,
    kindAtRow: emptyInbox,
    itemAtRow: emptyInbox,
  });
  private readonly noRows = new Int32Array(0);

  constructor(
    private readonly bus: MessageBus,
    private readonly answerCtx: StepContext<unknown>,
    private readonly respond: Responder<unknown> | undefined,
    private readonly worldId: string,
  ) {}

  /** Resolves one encounter opened by `opener` with `partner`; returns the answer as the opener hears it. */
  open(
    opener: number,
    tick: number,
    sub: number,
    partner: number,
    kind: string,
    item: string | undefined,
    payload: Message['payload'],
  ): Message | null {
    if (partner === opener) throw new RunError(`agent ${opener} opened an encounter with itself`);
    if (this.busy) throw new RunError(`agent ${opener} opened an encounter while another was being answered`);
    const bus = this.bus;
    const sent = bus.say(opener, partner, tick, kind, item, payload);
    const heard = bus.heardBy(sent, partner);
    this.lastSaid = sent.id;
    let reply: Message | null = null;
    let replyHeard: Message | null = null;
    let answer: EncounterRecord['answer'] = null;
    if (heard) {
      this.delivered++;
      const before = this.changeCount ? this.changeCount() : 0;
      const ctx = this.answer(opener, partner, tick, sub, heard);
      const record = ctx.close();
      if (record) answer = { events: record.events, memory: record.memory, sent: record.sent };
      const replyKind = ctx.endAnswer();
      if (replyKind !== null) {
        reply = bus.say(partner, opener, tick, replyKind, ctx.answerItem, ctx.answerPayload);
        replyHeard = bus.heardBy(reply, opener);
        if (replyHeard) this.delivered++;
      }
      // an answer that wrote nothing leaves the responder's rate as it was (a rate reads only
      // its agent's state and memory, the parameters and the network: docs/TIME.md)
      if (this.answered && (!this.changeCount || this.changeCount() !== before)) this.answered(partner);
    }
    if (bus.observingEncounters)
      bus.encountered(
        tick,
        {
          responder: partner,
          said: sent,
          heard: heard !== null,
          reply,
          replyHeard: replyHeard !== null,
          answer,
        },
        heard,
        replyHeard,
      );
    return replyHeard;
  }

  /** Runs the responder on the answering context; returns that context, still open. */
  private answer(
    opener: number,
    partner: number,
    tick: number,
    sub: number,
    heard: Message,
  ): StepContext<unknown> {
    if (!this.respond)
      throw new RunError(`world "${this.worldId}" opens encounters but declares no responder`, {
        hint: 'add respond(ctx, said) to the world instance',
      });
    const ctx = this.answerCtx.aimAnswer(
      partner,
      tick,
      this.none.aim(partner, this.noRows, 0, 0),
      opener,
      sub,
    );
    this.busy = true;
    try {
      this.respond(ctx, heard);
    } finally {
      this.busy = false;
    }
    return ctx;
  }
}

function emptyInbox(): never {
  throw new RunError('an encounter responder has an empty inbox');
}
