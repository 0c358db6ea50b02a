import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ConfigError, RunError, UsageError } from '../core/index.ts';

/** Where texts are embedded: an OpenAI-compatible `/v1/embeddings` endpoint and model. */
export interface EmbeddingConfig {
  /** Model name sent to the endpoint, e.g. `text-embedding-3-small`. */
  model: string;
  /** Endpoint base URL, e.g. `http://127.0.0.1:8787/v1`; unset: OpenAI's. */
  baseURL?: string;
  /** Key of the endpoint; local servers take any string. */
  apiKey?: string;
}

/** The embeddings file beside a log: vectors per model, keyed by sha256 of the text. */
interface EmbeddingFile {
  version: 1;
  models: Record<string, Record<string, number[]>>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function readStore(path: string): EmbeddingFile {
  if (!existsSync(path)) return { version: 1, models: {} };
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as EmbeddingFile;
    if (file.version === 1 && typeof file.models === 'object' && file.models !== null) return file;
  } catch {
    // fall through: an unreadable file is a bad input, reported below
  }
  throw new ConfigError(`${path} is not a grapevine embeddings file`, {
    hint: 'delete it; the embeddings are fetched again from --embedding-base-url',
  });
}

/** The embeddings the endpoint gives `texts`, in order, through LangChain's `OpenAIEmbeddings`. */
async function fetchEmbeddings(texts: string[], config: EmbeddingConfig): Promise<number[][]> {
  if (config.baseURL === undefined && config.apiKey === undefined)
    throw new ConfigError(`no API key for the embedding model ${config.model}`, {
      hint: 'set OPENAI_API_KEY, or point --embedding-base-url at an OpenAI-compatible endpoint (e.g. grapevine serve-llm)',
    });
  const { OpenAIEmbeddings } = await import('@langchain/openai');
  const model = new OpenAIEmbeddings({
    model: config.model,
    apiKey: config.apiKey ?? 'grapevine-local',
    maxRetries: 2,
    ...(config.baseURL === undefined ? {} : { configuration: { baseURL: config.baseURL } }),
  });
  let vectors: number[][];
  try {
    vectors = await model.embedDocuments(texts);
  } catch (err) {
    const where = config.baseURL ?? "OpenAI's endpoint";
    throw new RunError(`embedding ${texts.length} texts with ${config.model} at ${where} failed`, {
      hint: 'check --embedding-model and --embedding-base-url',
      cause: err,
    });
  }
  if (vectors.length !== texts.length)
    throw new RunError(
      `the embedding endpoint returned ${vectors.length} vectors for ${texts.length} texts`,
      {
        hint: 'check --embedding-base-url',
      },
    );
  return vectors;
}

/**
 * Embeds `texts` with `config.model`, each distinct text once, through an embeddings file at
 * `storePath` (JSON, vectors per model keyed by sha256 of the text): texts found there are
 * not sent; the others are embedded in one batch and added to the file (written atomically).
 * So a report made once with the endpoint is made again offline, with the same vectors.
 * @throws ConfigError when the file is not an embeddings file or no key is known; RunError
 *   when the endpoint fails.
 */
export async function embedTexts(
  texts: readonly string[],
  config: EmbeddingConfig,
  storePath: string,
): Promise<number[][]> {
  const store = readStore(storePath);
  store.models[config.model] ??= {};
  const known = store.models[config.model];
  const missing = [...new Set(texts)].filter((t) => known[sha(t)] === undefined);
  if (missing.length > 0) {
    const vectors = await fetchEmbeddings(missing, config);
    missing.forEach((t, i) => {
      known[sha(t)] = vectors[i];
    });
    const tmp = `${storePath}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(store)}\n`);
    renameSync(tmp, storePath);
  }
  return texts.map((t) => known[sha(t)]);
}

/**
 * Checks `--embedding-model` and `--embedding-base-url` before anything is read: a model
 * name that is not empty, and a base URL only with a model and only as an http(s) URL.
 * @throws UsageError (exit 2) naming the flag.
 */
export function checkEmbeddingFlags(model: string | undefined, baseUrl: string | undefined): void {
  if (model !== undefined && model.trim() === '')
    throw new UsageError('--embedding-model is empty', {
      hint: 'name the embedding model, e.g. text-embedding-3-small',
    });
  if (baseUrl === undefined) return;
  if (model === undefined)
    throw new UsageError('--embedding-base-url is given without --embedding-model', {
      hint: 'add --embedding-model NAME, the model that endpoint serves',
    });
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl))
    throw new UsageError(`--embedding-base-url must be an http(s) URL, got "${baseUrl}"`, {
      hint: 'e.g. --embedding-base-url http://127.0.0.1:8080/v1',
    });
}

/** The embedding endpoint of `--embedding-model` / `--embedding-base-url`, its key from OPENAI_API_KEY when set. */
export function embeddingConfigOf(
  model: string,
  baseUrl: string | undefined,
  env: Record<string, string | undefined> = process.env,
): EmbeddingConfig {
  return {
    model,
    ...(baseUrl === undefined ? {} : { baseURL: baseUrl }),
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  };
}
