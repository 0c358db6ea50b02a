/**
 * URL of the running engine's public entry, which a user's world file gets for the bare
 * specifier `grapevine`: dist/src/index.js beside the compiled sources, src/index.ts from
 * the sources. The bundled CLI (scripts/bundle-cli.mjs) replaces this module with one that
 * names the bundle's own entry, so that a world file and the CLI share one engine.
 */
export function engineEntry(): string {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`../index${ext}`, import.meta.url).href;
}
