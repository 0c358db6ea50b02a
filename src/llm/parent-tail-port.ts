import type { LlmPort, LlmReply, LlmRequest } from './port.ts';
import { promptHash } from './prompt-hash.ts';
import type { LlmCallRecord } from './recording-port.ts';

/**
 * The LLM of a fork without intervention after its fork tick: each caller's calls are
 * served from the parent's recorded calls of the same ticks (through `replay`, a replaying
 * stack over exactly those records) as long as they are the calls the parent made (same
 * tick, purpose and prompt hash, in the parent's order), so the child writes the parent's
 * `llm` lines, failed attempts included, and reaches the parent's digest without asking
 * the model again. From a caller's first call that differs (or once its recorded calls are
 * used up), that caller asks `live`.
 */
export class ParentTailPort implements LlmPort {
  private readonly queues = new Map<string, LlmCallRecord[]>();
  private readonly diverged = new Set<string>();
  /** Calls served from the parent's recording. */
  reused = 0;

  constructor(
    records: readonly LlmCallRecord[],
    private readonly replay: LlmPort,
    private readonly live: LlmPort,
  ) {
    for (const record of records) {
      const queue = this.queues.get(record.caller);
      if (queue) queue.push(record);
      else this.queues.set(record.caller, [record]);
    }
  }

  complete(request: LlmRequest): Promise<LlmReply> {
    const queue = this.diverged.has(request.caller) ? undefined : this.queues.get(request.caller);
    const next = queue?.[0];
    if (
      next &&
      next.tick === request.tick &&
      next.purpose === request.purpose &&
      next.promptHash === promptHash(request.params, request.messages)
    ) {
      queue!.shift();
      this.reused++;
      return this.replay.complete(request);
    }
    this.diverged.add(request.caller);
    return this.live.complete(request);
  }
}
