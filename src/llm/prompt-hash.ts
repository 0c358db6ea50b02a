import { canonicalJson, sha256Hex } from '../core/index.ts';
import type { ChatMessage, LlmParams } from './port.ts';

/**
 * SHA-256 (hex) of the canonical JSON of `{ params, messages }`: what identifies a prompt in
 * the replay log and keys the response cache. Caller, tick and purpose are not part of it.
 */
export function promptHash(params: LlmParams, messages: readonly ChatMessage[]): string {
  return sha256Hex(canonicalJson({ params, messages }));
}
