import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodError } from 'zod';
import { type ChatRequest, chatRequestSchema } from './chat-request.ts';
import type { FaultInjector } from './fault-injector.ts';
import { errorBody, readBody, sendError, sendEvents, sendJson, sendRaw } from './http-io.ts';
import type { ResponderReply } from './llm-responder.ts';
import type { LocalServerStats } from './local-server-stats.ts';
import type { ResponderRegistry } from './responder-registry.ts';
import type { ResolvedLocalServerOptions } from './serve-llm-options.ts';
import type { ServerTimers } from './server-timers.ts';
import { completionBody, completionChunks } from './wire-format.ts';

/** What the handler shares with the server that owns it. */
export interface ChatHandlerDeps {
  options: ResolvedLocalServerOptions;
  injector: FaultInjector;
  timers: ServerTimers;
  stats: LocalServerStats;
  /** The responders that answer chat requests. */
  registry: ResponderRegistry;
}

const INJECTED_500 = errorBody(
  'The server had an error while processing your request (injected fault).',
  'server_error',
  'internal_error',
);

/**
 * Handles `POST /v1/chat/completions`: reads and validates the body (400 in OpenAI's error
 * shape when it is not valid JSON or not a valid request), draws the request's fate, waits
 * the injected latency, then fails as drawn or answers with the registry's reply, as one
 * JSON object or as server-sent events when `stream` is true.
 */
export async function handleChatCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ChatHandlerDeps,
): Promise<void> {
  const request = await readRequest(req, res);
  if (!request) return;
  const { fault, delayMs } = deps.injector.draw();
  if (fault) deps.stats.faults[fault]++;
  if (fault === 'timeout') {
    hold(req, deps);
    return;
  }
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  if (!(await deps.timers.wait(delayMs)) || gone) return;
  if (fault === 'drop') req.socket.destroy();
  else if (fault === '429') sendRateLimited(res, deps.options);
  else if (fault === '500') sendError(res, 500, INJECTED_500);
  else {
    const reply = deps.registry.respond(request);
    if (fault === 'malformed') sendMalformed(res, request, reply);
    else sendReply(res, request, reply, deps);
  }
}

async function readRequest(req: IncomingMessage, res: ServerResponse): Promise<ChatRequest | null> {
  const text = await readBody(req).catch(() => undefined);
  if (text === undefined) return null;
  if (text === null) {
    sendError(res, 413, errorBody('Request body too large.', 'invalid_request_error', 'request_too_large'));
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const message = 'We could not parse the JSON body of your request. Send a valid JSON object.';
    sendError(res, 400, errorBody(message, 'invalid_request_error', 'invalid_json'));
    return null;
  }
  const parsed = chatRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  sendError(res, 400, validationError(parsed.error));
  return null;
}

function validationError(error: ZodError) {
  const issue = error.issues[0];
  const param = issue.path.length > 0 ? issue.path.map(String).join('.') : null;
  const where = param ? ` at '${param}'` : '';
  return errorBody(
    `Invalid request body${where}: ${issue.message}`,
    'invalid_request_error',
    'invalid_request_body',
    param,
  );
}

/** The timeout fault: never answer; drop the socket after `faultTimeoutMs` when it is set. */
function hold(req: IncomingMessage, deps: ChatHandlerDeps): void {
  if (deps.options.faultTimeoutMs <= 0) return;
  void deps.timers.wait(deps.options.faultTimeoutMs).then((due) => {
    if (due) req.socket.destroy();
  });
}

function sendRateLimited(res: ServerResponse, options: ResolvedLocalServerOptions): void {
  const seconds = options.retryAfterSeconds;
  const message = `Rate limit reached for ${options.model} (injected fault). Please try again in ${seconds}s.`;
  sendError(res, 429, errorBody(message, 'requests', 'rate_limit_exceeded'), {
    'retry-after': String(seconds),
    'retry-after-ms': String(Math.round(seconds * 1000)),
  });
}

function sendReply(
  res: ServerResponse,
  request: ChatRequest,
  reply: ResponderReply,
  deps: ChatHandlerDeps,
): void {
  const { stats } = deps;
  stats.completions++;
  stats.tokensIn += reply.promptTokens;
  stats.tokensOut += reply.completionTokens;
  const top = deps.options.logprobs && request.logprobs === true ? (request.top_logprobs ?? 0) : undefined;
  sendCompletion(res, request, reply, request.stream_options?.include_usage === true, top);
}

/**
 * Sends a reply as one `chat.completion` object (with token log-probabilities when `top` is
 * set), or as chunk events ending with `[DONE]` (streamed chunks carry `logprobs: null`).
 */
function sendCompletion(
  res: ServerResponse,
  request: ChatRequest,
  reply: ResponderReply,
  includeUsage: boolean,
  top?: number,
): void {
  if (request.stream) {
    const chunks = completionChunks(reply, request.model, includeUsage).map((c) => JSON.stringify(c));
    sendEvents(res, [...chunks, '[DONE]']);
  } else sendJson(res, 200, completionBody(reply, request.model, top));
}

/**
 * The malformed fault, status 200: for a JSON reply (JSON mode or a tool call) the JSON text
 * is cut in half, so the envelope is valid but the content does not parse; for a plain-text
 * reply the envelope itself is cut (the response body, or a stream event's data).
 */
function sendMalformed(res: ServerResponse, request: ChatRequest, reply: ResponderReply): void {
  const call = reply.toolCalls[0];
  if (reply.json && call)
    sendCompletion(
      res,
      request,
      { ...reply, toolCalls: [{ ...call, arguments: halve(call.arguments) }] },
      false,
    );
  else if (reply.json)
    sendCompletion(res, request, { ...reply, content: halve(reply.content ?? '{}') }, false);
  else if (!request.stream) sendRaw(res, 200, halve(JSON.stringify(completionBody(reply, request.model))));
  else {
    const [first, second] = completionChunks(reply, request.model, false).map((c) => JSON.stringify(c));
    sendEvents(res, [first, halve(second)]);
  }
}

/** The first half of a JSON text: never valid JSON, since a JSON value's last character closes it. */
function halve(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
