// The import graph of the project's TypeScript, read from the sources with a regular
// expression (static imports and re-exports, dynamic imports of literal paths). Relative
// specifiers only: packages are not nodes. Helper of import-rules.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import: from file to file (paths relative to the root), and whether only types are imported. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative import in the .ts/.mjs files under `folders` of `root`. */
export function importGraph(root: string, folders: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of folders.flatMap((f) => sourceFiles(join(root, f)))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[3];
      const to = relative(root, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      edges.push({ from: relative(root, file), to, typeOnly: Boolean(m[1]) });
    }
  }
  return edges;
}

/** The cycles of the graph (each as its files in order), by depth-first search. */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === 'open') cycles.push(stack.slice(stack.indexOf(to)));
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
