/** Engine version recorded in every log header (and printed by `grapevine --version`). */
export const ENGINE_VERSION = '0.1.0';
