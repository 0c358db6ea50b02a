import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LlmPort, LlmReply, LlmRequest, TokenLogprob, TokenUsage } from './port.ts';
import { promptHash } from './prompt-hash.ts';

/** Options of {@link CachePort}. */
export interface CacheOptions {
  /** Directory of the cache; created when missing. */
  dir: string;
}

/** One cache file. */
interface CacheEntry {
  version: 1;
  key: string;
  request: Pick<LlmRequest, 'params' | 'messages'>;
  reply: { text: string; usage: TokenUsage; model: string; logprobs?: TokenLogprob[] };
}

/**
 * An opt-in on-disk response cache: one JSON file per prompt, keyed by
 * {@link promptHash} of (params, messages), under `dir/<first two hex digits>/`. A hit returns
 * the stored reply with `cached: true` and no attempts; a miss calls the inner port and
 * stores the reply (atomically: temp file, then rename). Unreadable entries count as misses
 * and are overwritten. Only successful replies are stored.
 */
export class CachePort implements LlmPort {
  private readonly dir: string;
  private hitCount = 0;
  private missCount = 0;
  private writeErrorCount = 0;
  private tmpSeq = 0;

  constructor(
    private readonly inner: LlmPort,
    options: CacheOptions,
  ) {
    this.dir = options.dir;
  }

  /** Hits, misses, and entries that could not be written (the call still succeeded). */
  stats(): { hits: number; misses: number; writeErrors: number } {
    return { hits: this.hitCount, misses: this.missCount, writeErrors: this.writeErrorCount };
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const key = promptHash(request.params, request.messages);
    const hit = await this.read(key);
    if (hit) {
      this.hitCount++;
      const reply: LlmReply = {
        text: hit.text,
        usage: { ...hit.usage },
        model: hit.model,
        attempts: [],
        cached: true,
      };
      if (hit.logprobs) reply.logprobs = hit.logprobs;
      return reply;
    }
    this.missCount++;
    const reply = await this.inner.complete(request);
    await this.write(key, request, reply);
    return reply;
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  private async read(key: string): Promise<CacheEntry['reply'] | undefined> {
    let raw: string;
    try {
      raw = await readFile(this.path(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(raw) as CacheEntry;
      const r = entry?.reply;
      const ok =
        entry.version === 1 &&
        entry.key === key &&
        typeof r?.text === 'string' &&
        typeof r.model === 'string' &&
        Number.isFinite(r.usage?.input) &&
        Number.isFinite(r.usage?.output);
      return ok ? r : undefined;
    } catch {
      return undefined;
    }
  }

  private async write(key: string, request: LlmRequest, reply: LlmReply): Promise<void> {
    const entry: CacheEntry = {
      version: 1,
      key,
      request: { params: request.params, messages: request.messages },
      reply: {
        text: reply.text,
        usage: reply.usage,
        model: reply.model,
        ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
      },
    };
    const file = this.path(key);
    const tmp = `${file}.${process.pid}.${this.tmpSeq++}.tmp`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(tmp, `${JSON.stringify(entry, null, 1)}\n`, 'utf8');
      await rename(tmp, file);
    } catch {
      // A cache that cannot be written only costs speed; the reply is good. Counted in stats.
      this.writeErrorCount++;
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}
