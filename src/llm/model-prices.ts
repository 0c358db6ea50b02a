/** Price of a model in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/**
 * Default prices of a few OpenAI models (USD per 1M tokens, standard tier, as published in
 * 2025). Prices change: pass your own table to override. Models not listed (local models,
 * vLLM, Ollama...) cost zero.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
};

const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 };

/**
 * The price of `model` in `table`: an exact match, else the longest listed name that the
 * model name starts with followed by `-` (so `gpt-4o-mini-2024-07-18` is `gpt-4o-mini`). A
 * provider prefix such as `openai/` is ignored. Unknown models are free.
 */
export function priceOf(model: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice {
  const name = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  if (Object.hasOwn(table, name)) return table[name];
  let best: string | undefined;
  for (const key of Object.keys(table))
    if (name.startsWith(`${key}-`) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? FREE : table[best];
}

/** True when `model` has a price in `table` (see {@link priceOf}); a run of any other has no known cost. */
export function hasPrice(
  model: string,
  table: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES,
): boolean {
  return priceOf(model, table) !== FREE;
}

/** Cost in USD of the given token counts at `price`. */
export function costOf(tokensIn: number, tokensOut: number, price: ModelPrice): number {
  return (tokensIn * price.inputPerMTok + tokensOut * price.outputPerMTok) / 1_000_000;
}

/**
 * The price of one call: by the model name the endpoint reported, else (when that name is
 * not priced, e.g. a dated alias we do not know) by the model name that was requested.
 */
export function priceForCall(
  reportedModel: string | undefined,
  requestedModel: string,
  table: Readonly<Record<string, ModelPrice>>,
): ModelPrice {
  const reported = reportedModel ? priceOf(reportedModel, table) : FREE;
  return reported.inputPerMTok || reported.outputPerMTok ? reported : priceOf(requestedModel, table);
}
