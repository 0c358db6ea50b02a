import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'grapevine.mjs');

/** `grapevine serve-llm` running in its own node process (so the client's CPU figures are its own). */
export interface ChildLlmServer {
  url: string;
  pid: number;
  /** Everything the server printed on stdout so far (its closing line holds its counts). */
  output(): string;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `grapevine serve-llm --port 0 --latency-ms N [...extra]` and waits until it listens. */
export async function startChildLlmServer(
  latencyMs: number,
  extra: readonly string[] = [],
): Promise<ChildLlmServer> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve-llm', '--port', '0', '--latency-ms', String(latencyMs), ...extra],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const m = /--llm-base-url (\S+)/.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve-llm exited with ${code} before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
