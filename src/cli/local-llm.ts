import type { LocalEndpointStarter } from '../llm/index.ts';
import {
  type LlmResponder,
  type LocalLlmServer,
  type LocalServerOptions,
  startLocalLlmServer,
} from '../llm-server/index.ts';
import { installedContributions } from './world-catalog.ts';

/**
 * The responders of the shipped local LLM server: a world file's own (`extra`, asked first:
 * the user's world is the product), then those of every installed contribution in order,
 * each loaded with the `serve-llm` option values it declared (`options`; other commands give
 * none). The generic responders come after these (the server adds them).
 */
export async function contributedResponders(
  extra: readonly LlmResponder[] = [],
  options: Readonly<Record<string, string | undefined>> = {},
): Promise<LlmResponder[]> {
  const out = [...extra];
  for (const c of installedContributions()) if (c.responders) out.push(...(await c.responders.load(options)));
  return out;
}

/** Starts the shipped local LLM server with the contributions' responders and `extra` (a world file's). */
export async function startShippedServer(
  extra: readonly LlmResponder[] = [],
  options: Omit<LocalServerOptions, 'responders'> = { port: 0 },
): Promise<LocalLlmServer> {
  return startLocalLlmServer({ ...options, responders: await contributedResponders(extra) });
}

/**
 * What `openLlm` gets as `localServer`: the shipped server on a free port, started only when
 * the configuration names no endpoint, with the contributions' responders and `extra`.
 */
export function shippedServerStarter(extra: readonly LlmResponder[] = []): LocalEndpointStarter {
  return () => startShippedServer(extra);
}
