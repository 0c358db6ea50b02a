import type { Command } from 'commander';

import { DEFAULT_ATTEMPTS, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '../llm/llm-defaults.ts';

/** Commander's accumulator of a repeatable option. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Which optional parts of the LLM option group a command takes. */
export interface LlmOptionGroup {
  /** `--budget-tokens`, `--budget-usd` (commands that stop at a tick boundary when spent). */
  budget?: boolean;
  /** `--llm-cache`. */
  cache?: boolean;
  /** `--allow-fallbacks` (commands that fail when every LLM call failed). */
  fallbacks?: boolean;
  /** What the endpoint is for, in `--llm-base-url`'s help. */
  purpose?: string;
}

/**
 * Declares the LLM options of a command, once for every command that opens an LLM (run,
 * fork, resume): names, help texts and the defaults they print come from here and from
 * `resolveLlmConfig`, which parses and validates them (with their environment variables).
 */
export function addLlmOptions(cmd: Command, group: LlmOptionGroup = {}): Command {
  cmd
    .option(
      '--llm-base-url <url>',
      `OpenAI-compatible endpoint${group.purpose ? ` ${group.purpose}` : ''}; several (comma-separated or repeated) make a pool (env OPENAI_BASE_URL; default: the shipped local server)`,
      collect,
    )
    .option(
      '--model <name>',
      'model name, or provider:name through LangChain (e.g. anthropic:claude-sonnet-4-5, ollama:llama3.2) (env GRAPEVINE_MODEL)',
    )
    .option('--llm-concurrency <n>', `LLM calls in flight at most (default ${DEFAULT_CONCURRENCY})`)
    .option('--llm-rpm <n>', 'requests per minute limit')
    .option('--llm-tpm <n>', 'tokens per minute limit')
    .option('--llm-timeout-ms <n>', `timeout of one LLM attempt (default ${DEFAULT_TIMEOUT_MS})`)
    .option('--llm-attempts <n>', `attempts per LLM call, first try included (default ${DEFAULT_ATTEMPTS})`);
  if (group.budget)
    cmd
      .option('--budget-tokens <n>', 'stop at a tick boundary once this many tokens are spent')
      .option('--budget-usd <x>', 'stop at a tick boundary once this much money is spent');
  if (group.cache)
    cmd.option(
      '--llm-cache <dir>',
      'reuse replies from an on-disk cache (keyed by model, parameters, messages)',
    );
  if (group.fallbacks)
    cmd.option(
      '--allow-fallbacks',
      'exit 0 even if every LLM call failed and all decisions were fallbacks (default: exit 1)',
    );
  return cmd;
}
