import { startLocalLlmServer } from '../../llm/index.ts';

/** Options of `grapevine serve-llm` (raw flag strings; the server's schema parses them). */
export type ServeLlmOptions = Record<string, string | undefined>;

/**
 * `grapevine serve-llm`: serves the local OpenAI-compatible endpoint until interrupted
 * (Ctrl-C), then prints what it served.
 */
export async function serveLlmCommand(opts: ServeLlmOptions): Promise<number> {
  const defined = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  const server = await startLocalLlmServer(defined);
  process.stdout.write(
    `grapevine local LLM server at ${server.url} (model ${server.options.model})\nuse: --llm-base-url ${server.url}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const stats = server.stats();
  await server.close();
  process.stdout.write(
    `served ${stats.completions} completions (${stats.requests} requests, ${stats.connections} connections)\n`,
  );
  return 0;
}
