// A real nats-server (JetStream on) for the sweep tests, on a free loopback port with a
// store in the given folder (.ci/run installs nats-server when it is missing; the tests that
// need it check for it with test/support/tools.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

/** A free loopback TCP port. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the loopback `port` (10 s at most). */
export async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((done) => {
      const c = new Socket().once('connect', () => done(true)).once('error', () => done(false));
      c.connect(port, '127.0.0.1');
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nats-server did not start');
}

/**
 * Starts nats-server with JetStream storing in `store`, on `port` (a free one when not given:
 * a test that restarts the server passes the same port again); resolves once it listens.
 */
export async function startNats(
  store: string,
  port?: number,
): Promise<{ url: string; server: ChildProcess; port: number }> {
  port ??= await freePort();
  const server = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], {
    stdio: 'ignore',
  });
  // a spawn error (no nats-server: callers check with test/support/tools.ts first) fails the start
  const failed = new Promise<never>((_, reject) => server.once('error', reject));
  await Promise.race([listening(port), failed]);
  return { url: `nats://127.0.0.1:${port}`, server, port };
}
