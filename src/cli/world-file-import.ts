import Module, { register } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { engineEntries } from './engine-entry.ts';
import type { ResolveHookData } from './grapevine-resolve-hook.ts';

/** True when this module runs from the TypeScript sources rather than from dist/. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const EXT = FROM_SOURCES ? '.ts' : '.js';

let hooked = false;
let typescriptLoaded = false;

/**
 * Registers, once per process, the hook that makes `import … from 'grapevine'` (and from its
 * subpaths) the running engine. From the sources (tests in-process) Node's own package self-reference does it.
 */
function hookGrapevine(): void {
  if (hooked || FROM_SOURCES) return;
  hooked = true;
  const data: ResolveHookData = { entries: engineEntries() };
  register(new URL(`./grapevine-resolve-hook${EXT}`, import.meta.url), { data });
  requireGrapevine(data.entries);
}

/** Node's CommonJS resolver, whose one documented-by-use override point this is. */
type Resolver = { _resolveFilename: (request: string, ...rest: unknown[]) => string };

/**
 * The same mapping for `require`: the TypeScript loader compiles a world's local module (a
 * helper the world file imports) as CommonJS in a folder whose package.json does not say
 * `"type": "module"`, and Node 20's module hooks do not see `require`. The engine's entries
 * are CommonJS in the bundled CLI (an entry's `.mjs` is the ES module face of the `.js`
 * beside it), so a required `grapevine` is the running engine too.
 */
function requireGrapevine(entries: Record<string, string>): void {
  const resolver = Module as unknown as Resolver;
  const next = resolver._resolveFilename;
  resolver._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    const url = Object.hasOwn(entries, request) ? entries[request] : undefined;
    if (!url) return next.call(this, request, ...rest);
    const file = fileURLToPath(url);
    return file.endsWith('.mjs') ? `${file.slice(0, -'.mjs'.length)}.js` : file;
  };
}

/**
 * Imports a user's world file (.js, .mjs, .ts, .mts) from any folder. A TypeScript file
 * loads the tsx loader first (only then: the compiled CLI starts without it); the bare
 * specifier `grapevine` and its subpaths resolve to this engine, so the world's objects and
 * ours are one.
 */
export async function importWorldFile(path: string): Promise<Record<string, unknown>> {
  if (/^\.[mc]?ts$/.test(extname(path)) && !typescriptLoaded && !FROM_SOURCES) {
    const tsx = await import('tsx/esm/api');
    tsx.register();
    typescriptLoaded = true;
  }
  // After tsx: hooks run last-registered first, so ours sees `grapevine` before tsx does.
  hookGrapevine();
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}
