// A Node module-resolution hook (registered by world-file-import.ts, run on Node's hooks
// thread): a user's world file that imports the bare specifier `grapevine` gets the engine
// that is running, wherever the file lives and whatever its folder has installed.

/** What `module.register` passes to {@link initialize}. */
export interface ResolveHookData {
  /** URL of the running engine's public entry (dist/src/index.js, or src/index.ts from sources). */
  entry: string;
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

let entry = '';

/** Receives the entry URL from the thread that registered the hook. */
export function initialize(data: ResolveHookData): void {
  entry = data.entry;
}

/**
 * Maps `grapevine` to the running engine, and makes a user's TypeScript files ES modules
 * even in a folder whose package.json does not say `"type": "module"` (or that has none):
 * world files are written with `import`, and the TypeScript loader would otherwise load
 * them as CommonJS, where neither this mapping nor `import` of ES modules applies.
 * Every other specifier goes on down the chain unchanged.
 */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  // no format: the bundled CLI's entry is CommonJS (dist/cli/package.json says so), tsc's an ES module
  if (specifier === 'grapevine' && entry) return { url: entry, shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  if (isUserTypeScript(resolved.url)) return { ...resolved, format: 'module' };
  return resolved;
}

function isUserTypeScript(url: string): boolean {
  return url.startsWith('file:') && /\.(ts|mts|tsx)(\?|$)/.test(url) && !url.includes('/node_modules/');
}
