// A Node module-resolution hook (registered by world-file-import.ts, run on Node's hooks
// thread): a user's world file that imports the bare specifier `grapevine` (or one of its
// subpaths, `grapevine/llm` ...) gets the engine that is running, wherever the file lives and
// whatever its folder has installed.

/** What `module.register` passes to {@link initialize}. */
export interface ResolveHookData {
  /**
   * URL of each public entry of the running engine, by specifier (`grapevine`,
   * `grapevine/llm`, ...): dist/cli/ under the bundled CLI, dist/src/ or src/ otherwise.
   */
  entries: Record<string, string>;
}

interface ResolveContext {
  parentURL?: string;
}

interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}

type NextResolve = (specifier: string, context: ResolveContext) => Promise<ResolveResult>;

let entries: Record<string, string> = {};

/** Receives the entries' URLs from the thread that registered the hook. */
export function initialize(data: ResolveHookData): void {
  entries = data.entries;
}

/**
 * Maps `grapevine` and its subpaths to the running engine, and makes a user's TypeScript
 * files ES modules even in a folder whose package.json does not say `"type": "module"` (or
 * that has none): world files are written with `import`, and the TypeScript loader would
 * otherwise load them as CommonJS, where neither this mapping nor `import` of ES modules
 * applies. A subpath the package does not export fails as Node fails it, naming the entries
 * there are. Every other specifier goes on down the chain unchanged.
 */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  if (specifier === 'grapevine' || specifier.startsWith('grapevine/')) {
    // no format: Node reads it from the file (the bundled CLI's .mjs faces, tsc's ES modules)
    const url = Object.hasOwn(entries, specifier) ? entries[specifier] : undefined;
    if (url) return { url, shortCircuit: true };
    const known = Object.keys(entries).join(', ');
    const err = new Error(`'${specifier}' is not an entry of grapevine (its entries: ${known})`);
    throw Object.assign(err, { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  }
  const resolved = await nextResolve(specifier, context);
  if (isUserTypeScript(resolved.url)) return { ...resolved, format: 'module' };
  return resolved;
}

function isUserTypeScript(url: string): boolean {
  return url.startsWith('file:') && /\.(ts|mts|tsx)(\?|$)/.test(url) && !url.includes('/node_modules/');
}
