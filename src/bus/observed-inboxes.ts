// From rxjs's per-class modules (public subpaths of rxjs 7), not its index: the declarations
// this file emits then load 30 kB of rxjs types instead of 340 kB, a seventh of the type
// check of every world file that imports grapevine. The classes are the ones the index exports.
import type { Observable } from 'rxjs/internal/Observable';
import { Subject } from 'rxjs/internal/Subject';
import { checkAgent } from './address-router.ts';
import type { BusEvent, EncounterRecord } from './bus-event.ts';
import type { Inbox } from './inbox.ts';
import type { Message } from './message.ts';
import { ReleasedInboxes } from './released-inboxes.ts';

/**
 * The observed side of the {@link MessageBus}: taking an inbox marks it observed and, only
 * when someone listens, reports it (full logs through {@link ObservedInboxes.events$},
 * per-agent observation streams); resolved encounters are reported the same way. With
 * nobody listening nothing is built.
 */
export class ObservedInboxes extends ReleasedInboxes {
  protected readonly streams = new Map<number, Subject<readonly Message[]>>();
  protected readonly events = new Subject<BusEvent>();
  /** Every send and every observed inbox, for full logs; costs nothing when unobserved. */
  readonly events$: Observable<BusEvent> = this.events.asObservable();

  /**
   * Hands agent `i` its whole inbox for this step and marks it observed. The returned view
   * is reused by the next call.
   */
  take(i: number): Inbox {
    // a release that reached nobody (most ticks of a continuous-time run) needs no look-up
    const n = this.touchedCount === 0 ? 0 : this.inboxCount[i];
    if (n === 0) return this.view.aim(i, this.order, 0, 0);
    const view = this.view.aim(i, this.order, this.inboxStart[i], n);
    this.inboxCount[i] = 0;
    const stream = this.streams.size === 0 ? undefined : this.streams.get(i);
    if (stream || this.events.observed) {
      const messages = view.toArray();
      stream?.next(messages);
      if (this.events.observed)
        this.events.next({ type: 'observed', tick: this.releasedTick, agent: i, messages });
    }
    return view;
  }

  /** Agent `i`'s observation stream: one array per step in which it had mail. */
  observe(i: number): Observable<readonly Message[]> {
    checkAgent(i, this.size, 'observer');
    let s = this.streams.get(i);
    if (!s) {
      s = new Subject<readonly Message[]>();
      this.streams.set(i, s);
    }
    return s.asObservable();
  }

  /** Reports a resolved encounter to observers: full logs, and the two sides' observation streams. */
  encountered(
    tick: number,
    record: EncounterRecord,
    heard: Message | null,
    replyHeard: Message | null,
  ): void {
    if (this.events.observed) this.events.next({ type: 'encounter', tick, encounter: record });
    if (this.streams.size === 0) return;
    const responder = this.streams.get(record.responder);
    if (heard && responder) responder.next([heard]);
    const opener = this.streams.get(record.said.from);
    if (replyHeard && opener) opener.next([replyHeard]);
  }

  /** True if anyone observes encounters (full logs, observation streams). */
  get observingEncounters(): boolean {
    return this.events.observed || this.streams.size > 0;
  }

  /** Completes every stream. */
  close(): void {
    for (const s of this.streams.values()) s.complete();
    this.events.complete();
  }
}
