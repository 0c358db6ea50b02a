// Used by scripts/bundle-cli.mjs. Rewrites `import { a, b } from '…/index.ts'` (an import
// from a module's barrel, as worlds do with src/index.ts and the entries of src/public/) into
// imports from the modules that define `a` and `b`. esbuild splits code by which entry points
// reach a file through its imports, and a barrel reaches every module it re-exports: without
// this, a world that imports three names of the public API would load the chunks of the whole
// engine (the sweep's NATS client included) when it runs. The bundle's behaviour is
// unchanged: the same bindings, from the same modules, each evaluated once.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const REEXPORT = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;
const STAR = /export\s+\*\s+from\s*'([^']+)'/g;
const LOCAL =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const LOCAL_LIST = /^export\s*\{([^}]*)\}\s*;/gm;
const BARREL_IMPORT =
  /import\s*\{([^}]*)\}\s*from\s*'(\.{1,2}\/[^']*(?:index|\/src\/public\/[\w-]+)\.ts)'\s*;/g;

/** What one file exports: names defined in it, names re-exported by name, `export *` sources. */
const shapes = new Map();

function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const type = s.startsWith('type ');
      const [from, as] = s.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { type, from: from.trim(), as: (as ?? from).trim() };
    });
}

function shape(file) {
  let s = shapes.get(file);
  if (s) return s;
  const text = readFileSync(file, 'utf8');
  s = { local: new Set(), named: new Map(), star: [] };
  for (const m of text.matchAll(LOCAL)) s.local.add(m[1]);
  for (const m of text.matchAll(LOCAL_LIST)) for (const sp of specifiers(m[1])) s.local.add(sp.as);
  for (const m of text.matchAll(REEXPORT)) {
    const pkg = !m[3].startsWith('.');
    const target = pkg ? m[3] : resolve(dirname(file), m[3]);
    for (const sp of specifiers(m[2])) s.named.set(sp.as, { file: target, name: sp.from, pkg });
  }
  for (const m of text.matchAll(STAR)) s.star.push(resolve(dirname(file), m[1]));
  shapes.set(file, s);
  return s;
}

/** The file that defines `name` as exported by `file`, and its name there; undefined if unsure. */
function definition(file, name, depth = 0) {
  if (depth > 10 || !file.endsWith('.ts')) return undefined;
  const s = shape(file);
  if (s.local.has(name)) return { file, name };
  const named = s.named.get(name);
  if (named?.pkg) return { file: named.file, name: named.name, pkg: true };
  if (named) return definition(named.file, named.name, depth + 1);
  const found = s.star.map((f) => definition(f, name, depth + 1)).filter(Boolean);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * `source` (the text of `file`) with each import from a barrel replaced by imports from the
 * defining modules; an import with a name that cannot be traced is left as it was.
 * @param {string} file @param {string} source @param {string} root only files under it are traced
 */
export function unbarrelImports(file, source, root) {
  return source.replace(BARREL_IMPORT, (whole, list, spec) => {
    const barrel = resolve(dirname(file), spec);
    if (relative(root, barrel).startsWith('..')) return whole;
    const groups = new Map();
    for (const sp of specifiers(list)) {
      if (sp.type) continue;
      const d = definition(barrel, sp.from);
      if (!d) return whole;
      let rel = d.pkg ? d.file : relative(dirname(file), d.file).split(sep).join('/');
      if (!d.pkg && !rel.startsWith('.')) rel = `./${rel}`;
      const names = groups.get(rel) ?? [];
      names.push(d.name === sp.as ? d.name : `${d.name} as ${sp.as}`);
      groups.set(rel, names);
    }
    return [...groups].map(([rel, names]) => `import { ${names.join(', ')} } from '${rel}';`).join('\n');
  });
}
