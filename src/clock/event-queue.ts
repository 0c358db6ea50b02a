/** Something scheduled on the world clock. */
export interface ClockEvent {
  /** Simulation time (ticks; may be fractional for asynchronous activation). */
  time: number;
  /** Lower runs first among events at the same time. */
  priority: number;
  /** Insertion order; breaks remaining ties, so the order is total and deterministic. */
  seq: number;
  /** What happens: `tick` for a world step, `wake` for one agent's activation, or a world-defined kind. */
  kind: string;
  /** The agent concerned, or -1. */
  agent: number;
  /** Free counter for the scheduler (e.g. an agent's activation number). */
  n: number;
}

/** Plain-JSON form of the queue, for snapshots. */
export interface EventQueueState {
  nextSeq: number;
  events: ClockEvent[];
}

/** True if `a` runs before `b` in (time, priority, seq) order. */
export function before(a: ClockEvent, b: ClockEvent): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.priority !== b.priority) return a.priority < b.priority;
  return a.seq < b.seq;
}

/**
 * The world clock's discrete-event queue: a binary heap ordered by (time, priority, seq).
 */
export class EventQueue {
  private heap: ClockEvent[] = [];
  private nextSeq = 0;

  /** Number of pending events. */
  get size(): number {
    return this.heap.length;
  }

  /** Schedules an event and returns it (with its sequence number filled in). */
  push(time: number, kind: string, agent = -1, priority = 0, n = 0): ClockEvent {
    if (!Number.isFinite(time)) throw new RangeError(`event time must be finite, got ${time}`);
    const ev: ClockEvent = { time, priority, seq: this.nextSeq++, kind, agent, n };
    this.heap.push(ev);
    this.siftUp(this.heap.length - 1);
    return ev;
  }

  /** The earliest event, without removing it. */
  peek(): ClockEvent | undefined {
    return this.heap[0];
  }

  /** Removes and returns the earliest event. */
  pop(): ClockEvent | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Removes and returns, in order, every event with time <= `time`. */
  popUntil(time: number): ClockEvent[] {
    const out: ClockEvent[] = [];
    while (this.heap.length > 0 && this.heap[0].time <= time) out.push(this.pop()!);
    return out;
  }

  /** Plain-JSON state (events in heap order; restoring gives the same pop order). */
  state(): EventQueueState {
    return { nextSeq: this.nextSeq, events: this.heap.map((e) => ({ ...e })) };
  }

  /** Restores a queue from {@link EventQueue.state}. */
  static restore(state: EventQueueState): EventQueue {
    const q = new EventQueue();
    q.nextSeq = state.nextSeq;
    q.heap = state.events.map((e) => ({ ...e }));
    return q;
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    const item = heap[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = item;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const item = heap[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(heap[r], heap[l]) ? r : l;
      if (!before(heap[child], item)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  }
}
