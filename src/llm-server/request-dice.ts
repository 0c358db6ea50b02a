import { createHash } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../core/index.ts';
import { type ChatRequest, messageText } from './chat-request.ts';

const TWO_POW_32 = 4294967296;

/**
 * The responder's source of choices: a pure function of the request's key. Each choice is
 * named by a purpose (`action`, `share`...) and drawn from sha256(key | purpose), so
 * adding a choice never shifts the others, and nothing depends on time or request order.
 */
export class RequestDice {
  /**
   * @param key Hex digest of the request; see {@link RequestDice.fromRequest}.
   */
  constructor(readonly key: string) {}

  /**
   * Dice for a request: the key is sha256 of the canonical JSON of (model, messages as
   * role and text, seed, temperature). At temperature 0 the seed is left out, as greedy
   * decoding does not sample. `response_format`, tools and `stream` are left out too, so
   * a JSON reply and a plain-text reply to the same messages express the same choices.
   */
  static fromRequest(request: ChatRequest): RequestDice {
    const temperature = request.temperature ?? null;
    const key = sha256Hex(
      canonicalJson({
        model: request.model,
        messages: request.messages.map((m) => ({ role: m.role, content: messageText(m) })),
        seed: temperature === 0 ? null : (request.seed ?? null),
        temperature,
      }),
    );
    return new RequestDice(key);
  }

  /** Uniform in [0, 1) for `purpose`. */
  unit(purpose: string): number {
    return createHash('sha256').update(`${this.key}|${purpose}`).digest().readUInt32BE(0) / TWO_POW_32;
  }

  /** Uniform integer in [0, n) for `purpose`. */
  int(purpose: string, n: number): number {
    return Math.floor(this.unit(purpose) * n);
  }

  /** True with probability `p` for `purpose`. */
  chance(purpose: string, p: number): boolean {
    return this.unit(purpose) < p;
  }

  /** An element of a non-empty array, chosen for `purpose`. */
  pick<T>(purpose: string, items: readonly T[]): T {
    return items[this.int(purpose, items.length)];
  }
}
