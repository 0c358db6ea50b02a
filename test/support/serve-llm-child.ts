// The local LLM server as its own process (`grapevine serve-llm`), for tests that run the CLI
// in-process against it: the server's work then does not share the test's event loop, and
// the test process holds only the client side of the connections.
import { spawn } from 'node:child_process';
import { BIN, cleanEnv } from '../support/cli.ts';

/** A running `grapevine serve-llm` child. */
export interface ServeLlmChild {
  /** The base URL to pass as `--llm-base-url`. */
  url: string;
  /** Stops the server (SIGTERM unless another signal is given) and resolves to its exit code. */
  close(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `grapevine serve-llm --port 0 ...args` and waits for the URL it prints. */
export function startServeLlm(args: readonly string[] = []): Promise<ServeLlmChild> {
  const child = spawn(process.execPath, [BIN, 'serve-llm', '--port', '0', ...args], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((started, failed) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /use: --llm-base-url (\S+)/.exec(out);
      if (m)
        started({
          url: m[1],
          close: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
    });
    child.once('exit', (code) =>
      failed(new Error(`grapevine serve-llm exited ${code} before serving: ${err}`)),
    );
  });
}
