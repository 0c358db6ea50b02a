import type {
  ChatMessage,
  FallbackCounter,
  LlmParams,
  LlmPort,
  LlmReply,
  LlmRequest,
} from '../../../src/public/llm.ts';
import { decideStructured, LlmCallError } from '../../../src/public/llm.ts';
import type { ParseResult, Reading, RepairSpec } from './reading.ts';

/**
 * Sotopia's way of getting a usable reply (`parsing: sotopia`; sotopia/generation_utils/
 * generate.py at `agent_vs_storyteller_v1`, `agenerate` and `ScriptOutputParser.parse`):
 * one call with the format instructions in the prompt and no JSON mode; if the reply does
 * not parse, one repair call (`format_bad_output` for JSON, `format_bad_output_for_script`
 * for scripts) asks a model to rewrite the reply into the format, at temperature 0.7 (the
 * default of Sotopia's `obtain_chain`); if that does not parse either, the ask failed and
 * the caller does what Sotopia does then (a `none` turn, a regenerated script or judgement).
 */

/** Builds the repair call's messages from the bad reply (the protocol's repair template). */
export type RepairPrompt = (spec: RepairSpec, badText: string) => ChatMessage[];

/** One ask: the request, how to parse its reply, and how to repair it. */
export interface SotopiaAsk<T> {
  llm: LlmPort;
  request: LlmRequest;
  parse: (text: string) => ParseResult<T>;
  repair: RepairSpec;
  repairPrompt: RepairPrompt;
  /** The repair call's model ('' = the request's own). */
  repairModel: string;
}

/** The outcome: the value, or why no usable reply came. */
export type AskOutcome<T> = { ok: true; value: T; errors: string[] } | { ok: false; errors: string[] };

/** Sotopia's repair temperature (`obtain_chain`'s default). */
export const REPAIR_TEMPERATURE = 0.7;

async function call(llm: LlmPort, request: LlmRequest, errors: string[]): Promise<LlmReply | null> {
  try {
    return await llm.complete(request);
  } catch (err) {
    if (!(err instanceof LlmCallError)) throw err;
    errors.push(`${request.purpose}: ${err.message}`);
    return null;
  }
}

/** Asks once, repairs once; every call goes through the run's (recorded) port. */
export async function askSotopia<T>(a: SotopiaAsk<T>): Promise<AskOutcome<T>> {
  const errors: string[] = [];
  const { json: _noJsonMode, ...params } = a.request.params;
  const first = await call(a.llm, { ...a.request, params }, errors);
  if (!first) return { ok: false, errors };
  const parsed = a.parse(first.text);
  if (parsed.ok) return { ok: true, value: parsed.value, errors };
  errors.push(`${a.request.purpose}: ${parsed.error}`);
  const repairParams: LlmParams = {
    ...params,
    model: a.repairModel || params.model,
    temperature: REPAIR_TEMPERATURE,
  };
  const repair: LlmRequest = {
    caller: a.request.caller,
    tick: a.request.tick,
    purpose: `${a.request.purpose}:repair`,
    messages: a.repairPrompt(a.repair, first.text),
    params: repairParams,
  };
  const second = await call(a.llm, repair, errors);
  if (!second) return { ok: false, errors };
  const reparsed = a.parse(second.text);
  if (reparsed.ok) return { ok: true, value: reparsed.value, errors };
  errors.push(`${repair.purpose}: ${reparsed.error}`);
  return { ok: false, errors };
}

/** One reply asked the way its reading says: Sotopia's call and repair, or grapevine's JSON re-asks. */
export interface ReplyAsk<T> {
  llm: LlmPort;
  request: LlmRequest;
  reading: Reading<T>;
  /** The value when no usable reply came. */
  fallback: T;
  counters?: FallbackCounter;
  /** How a repair call is asked (Sotopia's way only). */
  repairPrompt: RepairPrompt;
  repairModel: string;
}

/** The reply, or the fallback (counted once) when none was usable; the errors either way. */
export async function askReply<T>(
  a: ReplyAsk<T>,
): Promise<{ value: T; fallback: boolean; errors: string[] }> {
  const { reading } = a;
  if (!reading.sotopia) {
    const params = reading.jsonSchema
      ? { ...a.request.params, json: { name: reading.name, schema: reading.jsonSchema } }
      : a.request.params;
    const r = await decideStructured(a.llm, { ...a.request, params }, reading.schema, {
      fallback: a.fallback,
      counters: a.counters,
      name: reading.name,
    });
    return { value: r.value, fallback: r.fallback, errors: r.errors };
  }
  const r = await askSotopia({
    llm: a.llm,
    request: a.request,
    ...reading.sotopia,
    repairPrompt: a.repairPrompt,
    repairModel: a.repairModel,
  });
  if (r.ok) return { value: r.value, fallback: false, errors: r.errors };
  if (a.counters) a.counters.fallbacks++;
  return { value: a.fallback, fallback: true, errors: r.errors };
}
