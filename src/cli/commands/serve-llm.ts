import { localServerOptionsSchema, startLocalLlmServer } from '../../llm-server/index.ts';
import { loadWorld } from '../load-world.ts';
import { contributedResponders } from '../local-llm.ts';

/**
 * Options of `grapevine serve-llm`: raw flag strings. The server's own options (its schema
 * parses them), `world` (a world file whose `responders` it serves), and the options the
 * contributions' responders declared (e.g. `synthetic`), handed to those responders.
 */
export type ServeLlmOptions = Record<string, string | boolean | undefined>;

const SERVER_KEYS: ReadonlySet<string> = new Set(Object.keys(localServerOptionsSchema.shape));

/**
 * `grapevine serve-llm`: serves the local OpenAI-compatible endpoint until interrupted
 * (Ctrl-C), then prints what it served. Its responders: `--world FILE`'s own, then every
 * contribution's (given the options they declared), then the generic ones.
 */
export async function serveLlmCommand(opts: ServeLlmOptions): Promise<number> {
  const server: Record<string, unknown> = {};
  const forResponders: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts)) {
    if (v === undefined || k === 'world') continue;
    if (SERVER_KEYS.has(k)) server[k] = v;
    else forResponders[k] = String(v);
  }
  const world = typeof opts.world === 'string' ? ((await loadWorld(opts.world)).responders ?? []) : [];
  const responders = await contributedResponders(world, forResponders);
  const running = await startLocalLlmServer({ ...server, responders });
  const names = [...responders.map((r) => r.name), 'generic'].join(', ');
  process.stdout.write(
    `grapevine local LLM server at ${running.url} (model ${running.options.model}; responders: ${names})\nuse: --llm-base-url ${running.url}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const stats = running.stats();
  await running.close();
  process.stdout.write(
    `served ${stats.completions} completions (${stats.requests} requests, ${stats.connections} connections)\n`,
  );
  return 0;
}
