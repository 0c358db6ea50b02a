import { type LlmFlags, needsLocalServer, resolveLlmConfig, withServerModel } from '../llm/index.ts';
import type { LlmResponder } from '../llm-server/index.ts';
import type { BudgetLimits } from '../sweep/index.ts';
import { startShippedServer } from './local-llm.ts';

/** The LLM flags a batch hands on to its runs (plain strings: they cross to worker threads). */
const FLAG_NAMES = [
  'llmBaseUrl',
  'model',
  'llmTimeoutMs',
  'llmConcurrency',
  'llmRpm',
  'llmTpm',
  'llmCache',
  'llmAttempts',
] as const satisfies readonly (keyof LlmFlags)[];

/** The LLM of a batch of runs (sweep, queue worker): the flags its runs open theirs from. */
export interface BatchLlm {
  /** Flags naming an endpoint (the local server's URL when none was given) and the model. */
  flags: LlmFlags;
  model: string;
  /** Where the calls go, for the user. */
  endpoint: string;
  /** Stops the local server when this started one. */
  close(): Promise<void>;
}

/**
 * Validates the LLM flags and variables of a batch (a ConfigError, exit 2) and, when they
 * name no endpoint and no `provider:name` model, starts the shipped local server once for
 * the whole batch, as `grapevine run` starts it for one run (with the contributions'
 * responders and `responders`, a world file's own); every run of the batch then opens its
 * own client to the same endpoint (or endpoint pool) with the same model.
 */
export async function openBatchLlm(
  opts: LlmFlags,
  env: Record<string, string | undefined> = process.env,
  responders: readonly LlmResponder[] = [],
): Promise<BatchLlm> {
  const flags: LlmFlags = {};
  for (const name of FLAG_NAMES) if (opts[name] !== undefined) Object.assign(flags, { [name]: opts[name] });
  // the model a server lists is asked once here, and every run of the batch names it
  const config = await withServerModel(resolveLlmConfig({ flags, env }));
  if (!needsLocalServer(config))
    return {
      flags: { ...flags, model: config.model },
      model: config.model,
      endpoint: (config.baseURLs ?? [config.baseURL ?? config.model]).join(', '),
      close: async () => {},
    };
  const server = await startShippedServer(responders);
  return {
    flags: { ...flags, llmBaseUrl: server.url, model: config.model },
    model: config.model,
    endpoint: `${server.url} (shipped local server)`,
    close: () => server.close(),
  };
}

/**
 * The LLM budget of a batch (sweep, queue worker) from `--budget-tokens` / `--budget-usd`
 * or their variables, checked as `run` checks them (a ConfigError, exit 2); undefined when
 * none is set. Only the budget's variables are read: the other LLM settings matter to
 * worlds that need an LLM only.
 */
export function batchBudget(
  opts: LlmFlags,
  env: Record<string, string | undefined> = process.env,
): BudgetLimits | undefined {
  const { budgetTokens, budgetUsd } = resolveLlmConfig({
    flags: { budgetTokens: opts.budgetTokens, budgetUsd: opts.budgetUsd },
    env: {
      GRAPEVINE_BUDGET_TOKENS: env.GRAPEVINE_BUDGET_TOKENS,
      GRAPEVINE_BUDGET_USD: env.GRAPEVINE_BUDGET_USD,
    },
  });
  if (budgetTokens === undefined && budgetUsd === undefined) return undefined;
  return {
    ...(budgetTokens === undefined ? {} : { budgetTokens }),
    ...(budgetUsd === undefined ? {} : { budgetUsd }),
  };
}
