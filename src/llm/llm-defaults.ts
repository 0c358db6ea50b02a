// No imports: the CLI reads these defaults for its help texts before it loads any engine code.

/** Default timeout of one LLM attempt, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default number of LLM calls in flight. */
export const DEFAULT_CONCURRENCY = 16;
/** Default attempts per call, the first included. */
export const DEFAULT_ATTEMPTS = 6;
