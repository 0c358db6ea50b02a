/** One input from outside the simulation (an LLM call and its reply, an intervention). */
export interface ExternalInput {
  /** Log event type, e.g. `llm`. */
  type: string;
  /** Who caused it: an agent index as a string, or a name such as `judge`. */
  caller: string;
  fields: Record<string, unknown>;
}

function callerRank(caller: string): number {
  return /^\d+$/.test(caller) ? Number(caller) : Number.MAX_SAFE_INTEGER;
}

/**
 * Collects inputs as they arrive (in completion order, which depends on the network) and
 * hands them back in canonical order: by caller (agent index, then named callers by name),
 * each caller's inputs in the order that caller made them. Written to the log at the
 * tick's commit, so the log never depends on latency.
 */
export class InputBuffer {
  private items: ExternalInput[] = [];

  /** Adds an input. */
  push(input: ExternalInput): void {
    this.items.push(input);
  }

  /** Removes and returns everything buffered, in canonical order. */
  drain(): ExternalInput[] {
    const out = this.items;
    this.items = [];
    return out
      .map((item, k) => ({ item, k }))
      .sort(
        (a, b) =>
          callerRank(a.item.caller) - callerRank(b.item.caller) ||
          (a.item.caller < b.item.caller ? -1 : a.item.caller > b.item.caller ? 1 : 0) ||
          a.k - b.k,
      )
      .map(({ item }) => item);
  }

  /** Number of buffered inputs. */
  get size(): number {
    return this.items.length;
  }
}
