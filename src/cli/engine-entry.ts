import { readdirSync } from 'node:fs';

/**
 * URLs of the running engine's public entries, by the specifier a user's world file imports:
 * `grapevine` (src/index) and `grapevine/<name>` for each file of src/public/ (the package's
 * subpath exports). From dist/src/ beside the compiled sources, or from the sources. The
 * bundled CLI (scripts/bundle-cli.mjs) replaces this module with one that names the bundle's
 * own entries, so that a world file and the CLI share one engine.
 */
export function engineEntries(): Record<string, string> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const entries: Record<string, string> = { grapevine: new URL(`../index${ext}`, import.meta.url).href };
  const folder = new URL('../public/', import.meta.url);
  for (const file of readdirSync(folder).sort())
    if (file.endsWith(ext) && !file.endsWith(`.d${ext}`))
      entries[`grapevine/${file.slice(0, -ext.length)}`] = new URL(file, folder).href;
  return entries;
}
