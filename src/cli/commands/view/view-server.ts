import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, RunError } from '../../../core/index.ts';
import type { ViewData } from './view-model.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Where the built page is: `dist/viewer/`, seen from the compiled CLI (dist/src/cli) or
 * from the sources (src/cli, run through tsx).
 */
export function viewerBundleDir(): string {
  for (const rel of ['../../../../viewer/', '../../../../dist/viewer/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'assets'))) return dir;
  }
  throw new RunError('the viewer page is not built', { hint: 'run npm run build (it writes dist/viewer/)' });
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * Serves the viewer on loopback: the static page from `bundle`, the model at `/api/model`
 * and one agent's details at `/api/agent/<id>`. Resolves once it listens.
 */
export function startViewServer(data: ViewData, bundle: string, port: number): Promise<Server> {
  const model = JSON.stringify(data.model);
  const server = createServer((req, res) => {
    // a page on another origin that rebinds its DNS name to 127.0.0.1 sends its own name as Host
    if (!loopbackHost(req.headers.host))
      return send(res, 421, 'text/plain', 'this server answers only 127.0.0.1 and localhost');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api/model') return send(res, 200, TYPES['.json'], model);
    const agent = /^\/api\/agent\/(\d+)$/.exec(url.pathname);
    if (agent) {
      const detail = data.detail(Number(agent[1]));
      if (!detail) return send(res, 404, 'text/plain', 'agent not shown');
      return send(res, 200, TYPES['.json'], JSON.stringify(detail));
    }
    const path = url.pathname === '/' ? '/index.html' : decodePath(url.pathname);
    if (path === undefined) return send(res, 400, 'text/plain', 'bad path');
    const rel = normalize(path);
    const file = join(bundle, rel);
    if (!file.startsWith(bundle) || !existsSync(file) || !TYPES[extname(file)])
      return send(res, 404, 'text/plain', 'not found');
    send(res, 200, TYPES[extname(file)], readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new ConfigError(`the viewer cannot listen on 127.0.0.1:${port} (${err.code ?? err.message})`, {
          hint: err.code === 'EADDRINUSE' ? 'choose another --port, or 0 for a free one' : 'check --port',
          cause: err,
        }),
      );
    });
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A URL path with its %-escapes decoded, or undefined when they are malformed (a request must not stop the server). */
function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

/**
 * True when a request's Host header names this loopback server: `127.0.0.1`, `localhost` or
 * `[::1]`, with or without a port. Anything else (or none) is refused: it is how a DNS-rebinding
 * page would reach the viewer's agents, memories and secrets.
 */
export function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(host.trim().toLowerCase())?.[1];
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}
