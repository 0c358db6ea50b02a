import { z } from 'zod';
import type { LlmResponder } from './llm-responder.ts';

/** The faults the local server can inject, as named on the command line. */
export const FAULT_KINDS = ['429', '500', 'timeout', 'malformed', 'drop'] as const;

/** One injectable fault: see {@link LocalServerOptions.faultKinds}. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Options of the local OpenAI-compatible server, as accepted by `startLocalLlmServer`. */
export interface LocalServerOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** TCP port; 0 (default) picks a free ephemeral port. */
  port?: number;
  /** Model id listed by `GET /v1/models` (default `grapevine-local`). */
  model?: string;
  /** Fixed delay before each chat completion is answered, in ms (default 0). */
  latencyMs?: number;
  /** Extra delay drawn uniformly from [0, latencyJitterMs) per request, in ms (default 0). */
  latencyJitterMs?: number;
  /** Probability in [0, 1] that a chat completion request gets a fault (default 0). */
  faultRate?: number;
  /** Faults to choose from, uniformly, when one is injected (default: all of {@link FAULT_KINDS}). */
  faultKinds?: FaultKind[];
  /** `retry-after` of an injected 429, in seconds; fractions allowed (default 1). */
  retryAfterSeconds?: number;
  /**
   * How long a `timeout` fault holds the request before the server destroys its socket, in ms.
   * 0 (default) holds it until the client gives up or the server closes.
   */
  faultTimeoutMs?: number;
  /** Seed of the fault and latency stream (default 0). */
  seed?: number | string;
  /** Answer `logprobs: true` requests with token log-probabilities (default true); false: `logprobs: null`, like an endpoint without them. */
  logprobs?: boolean;
  /**
   * Responders asked before the generic ones, in this order: worlds' answers to their own
   * prompt formats (see {@link LlmResponder}). Not a command-line option: `grapevine serve-llm`
   * passes those of the CLI's contributions and of `--world FILE`.
   */
  responders?: readonly LlmResponder[];
}

/** A number flag that also accepts its command-line string form (`"8787"`). */
const num = () => z.coerce.number<number | string>();

/** Fault kinds as an array or as a comma-separated command-line string (`"429,drop"`). */
const faultKindsSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((k) => k.trim()) : v),
  z.array(z.enum(FAULT_KINDS)).min(1, 'at least one fault kind is needed'),
);

/**
 * Zod schema of {@link LocalServerOptions}, with defaults and a description per option, so
 * that `grapevine serve-llm` can expose each key as a kebab-case flag (`latencyMs` becomes
 * `--latency-ms`). Numbers and fault kinds also accept their command-line string forms.
 */
export const localServerOptionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1').describe('Interface to listen on'),
  port: num()
    .pipe(z.number().int().min(0).max(65535))
    .default(0)
    .describe('TCP port to listen on; 0 picks a free port'),
  model: z.string().min(1).default('grapevine-local').describe('Model id listed by GET /v1/models'),
  latencyMs: num().pipe(z.number().min(0)).default(0).describe('Fixed delay before each reply, in ms'),
  latencyJitterMs: num()
    .pipe(z.number().min(0))
    .default(0)
    .describe('Extra random delay per reply, uniform in [0, jitter), in ms'),
  faultRate: num()
    .pipe(z.number().min(0).max(1))
    .default(0)
    .describe('Probability (0..1) that a chat completion request gets an injected fault'),
  faultKinds: faultKindsSchema
    .default([...FAULT_KINDS])
    .describe(`Faults to inject, comma-separated subset of ${FAULT_KINDS.join(',')}`),
  retryAfterSeconds: num()
    .pipe(z.number().min(0))
    .default(1)
    .describe('retry-after of an injected 429, in seconds (fractions allowed)'),
  faultTimeoutMs: num()
    .pipe(z.number().min(0))
    .default(0)
    .describe(
      'How long a timeout fault holds the request before dropping it, in ms; 0 = until the client gives up',
    ),
  seed: z.union([z.number(), z.string()]).default(0).describe('Seed of the fault and latency random stream'),
  logprobs: z
    .preprocess((v) => (v === 'false' ? false : v === 'true' ? true : v), z.boolean())
    .default(true)
    .describe('Return token log-probabilities when a request asks for them (false: logprobs null)'),
});

/** {@link LocalServerOptions} with every default filled in (the output of the schema), responders aside. */
export type ResolvedLocalServerOptions = z.output<typeof localServerOptionsSchema>;
