import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigError } from '../core/index.ts';
import { handleChatCompletion } from './chat-handler.ts';
import { handleEmbeddings } from './embeddings-handler.ts';
import { FaultInjector } from './fault-injector.ts';
import { errorBody, sendError, sendJson } from './http-io.ts';
import { emptyStats, type LocalServerStats } from './local-server-stats.ts';
import { ResponderRegistry } from './responder-registry.ts';
import {
  type LocalServerOptions,
  localServerOptionsSchema,
  type ResolvedLocalServerOptions,
} from './serve-llm-options.ts';
import { ServerTimers } from './server-timers.ts';
import { LOCAL_CREATED } from './wire-format.ts';

/** A running local OpenAI-compatible server. */
export interface LocalLlmServer {
  /** Base URL for OpenAI clients, ending in `/v1` (e.g. `http://127.0.0.1:40123/v1`). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The resolved options. */
  readonly options: ResolvedLocalServerOptions;
  /**
   * Stops the server: cancels pending latency waits, destroys every open socket (held
   * `timeout` requests included) and resolves when the listener is closed. Idempotent.
   */
  close(): Promise<void>;
  /** A snapshot of the counters. */
  stats(): LocalServerStats;
}

/**
 * Starts the local OpenAI-compatible chat server that tests and the offline demo use
 * instead of a real model. Routes: `POST /v1/chat/completions` (plain and `stream: true`),
 * `POST /v1/embeddings` (hashed bag of words, a test stand-in), `GET /v1/models`,
 * `GET /v1/models/<id>`, `GET /health` (the `/v1` prefix is optional).
 * Replies come from the deterministic responders (`opts.responders`, then the generic ones;
 * see {@link ResponderRegistry}); faults and latency are injected per
 * request from a seeded stream (see {@link FaultInjector}). Options are validated with
 * {@link localServerOptionsSchema}; a bad option, or a port that cannot be bound, throws a
 * `ConfigError`.
 */
export async function startLocalLlmServer(opts: LocalServerOptions = {}): Promise<LocalLlmServer> {
  const options = resolveOptions(opts);
  const stats = emptyStats();
  const timers = new ServerTimers();
  const deps = {
    options,
    stats,
    timers,
    injector: new FaultInjector(options),
    registry: new ResponderRegistry(opts.responders),
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    stats.requests++;
    route(req, res, options, () => handleChatCompletion(req, res, deps));
  });
  server.on('connection', (socket) => {
    stats.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, options);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise((resolve) => {
      timers.cancelAll();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/v1`,
    port,
    options,
    close,
    stats: () => ({ ...stats, faults: { ...stats.faults } }),
  };
}

function resolveOptions(opts: LocalServerOptions): ResolvedLocalServerOptions {
  const parsed = localServerOptionsSchema.safeParse(opts);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag = String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  throw new ConfigError(`invalid local LLM server option --${flag}: ${issue.message}`, {
    hint: 'Run `grapevine serve-llm --help` for the options and their ranges.',
    cause: parsed.error,
  });
}

function listen(server: Server, options: ResolvedLocalServerOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      const hint =
        err.code === 'EADDRINUSE'
          ? 'Choose another --port, or 0 for a free one.'
          : 'Check --host and --port.';
      reject(
        new ConfigError(`the local LLM server cannot listen on ${where} (${err.code ?? err.message})`, {
          hint,
          cause: err,
        }),
      );
    });
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  options: ResolvedLocalServerOptions,
  chat: () => Promise<void>,
): void {
  const path = (req.url ?? '/')
    .split('?')[0]
    .replace(/\/+$/, '')
    .replace(/^\/v1(?=\/)/, '');
  const method = req.method ?? 'GET';
  const allow = (m: string) => {
    if (method === m) return true;
    const message = `Method ${method} is not allowed on ${req.url}; use ${m}.`;
    sendError(res, 405, errorBody(message, 'invalid_request_error', 'method_not_allowed'), { allow: m });
    return false;
  };
  const model = { id: options.model, object: 'model', created: LOCAL_CREATED, owned_by: 'grapevine' };
  if (path === '/chat/completions') {
    if (allow('POST')) chat().catch((err: unknown) => internalError(res, err));
  } else if (path === '/embeddings') {
    if (allow('POST')) handleEmbeddings(req, res).catch((err: unknown) => internalError(res, err));
  } else if (path === '/models') {
    if (allow('GET')) sendJson(res, 200, { object: 'list', data: [model] });
  } else if (path.startsWith('/models/')) {
    if (!allow('GET')) return;
    const id = decodeURIComponent(path.slice('/models/'.length));
    if (id === options.model) sendJson(res, 200, model);
    else
      sendError(
        res,
        404,
        errorBody(`The model '${id}' does not exist`, 'invalid_request_error', 'model_not_found', 'model'),
      );
  } else if (path === '/health') {
    if (allow('GET')) sendJson(res, 200, { status: 'ok', model: options.model });
  } else {
    const message = `Unknown request URL: ${method} ${req.url}. Known routes: POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models, GET /health.`;
    sendError(res, 404, errorBody(message, 'invalid_request_error', 'unknown_url'));
  }
}

/** A bug in the server itself: a 500 naming it when the response has not started, else a dropped socket. */
function internalError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) res.destroy();
  else {
    const message = `The local LLM server failed: ${err instanceof Error ? err.message : String(err)}`;
    sendError(res, 500, errorBody(message, 'server_error', 'local_server_bug'));
  }
}
