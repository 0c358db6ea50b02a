// Bundles the CLI for a fast start (called by scripts/build.mjs after tsc has written dist/):
// esbuild turns the ~400 ES modules of src/ and worlds/ into a few files in dist/cli/, one
// entry for the CLI, one for the built-in worlds and one for each entry of the public API
// (`grapevine`, and `grapevine/<name>` for each file of src/public/), the rest split into
// chunks that a command imports only when it runs (each command, each world). Packages stay
// external (node_modules, loaded by Node as before). The library entries of the package
// (dist/src/index.js, dist/src/public/*.js and their .d.ts, from tsc) are not touched.
//
// Two rewrites keep the bundled code behaving as the compiled files do:
// - `import.meta.url` in a source file becomes the URL that file has in dist/ (tsc's output),
//   so the data files, type declarations, worker modules and hooks it names by a relative
//   URL are found where the build put them. Every output file lies in dist/cli/, so one
//   relative URL per source file is right whichever output file its code lands in.
// - src/cli/engine-entry.ts names the bundle's public entries (dist/cli/index.mjs for
//   `grapevine`, dist/cli/<name>.mjs for `grapevine/<name>`, the ES module faces of the
//   CommonJS entries: scripts/esm-facades.mjs): a user's world file that imports them then
//   shares the CLI's module instances.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { unbarrelImports } from './barrel-imports.mjs';
import { writeEsmFacades } from './esm-facades.mjs';

/** The subpaths of the public API: `grapevine/<name>` is src/public/<name>.ts. @param {string} root */
function publicSubpaths(root) {
  return readdirSync(join(root, 'src', 'public'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/**
 * Output files of the bundle, named as bin/grapevine.mjs and engine-entry expect them: the
 * CLI, the built-in worlds, and each entry of the public API.
 * @param {string} root
 */
function bundleEntries(root) {
  const subpaths = Object.fromEntries(publicSubpaths(root).map((name) => [name, `src/public/${name}.ts`]));
  return { main: 'src/cli/main.ts', worlds: 'worlds/index.ts', index: 'src/index.ts', ...subpaths };
}

/** The bundle's engine-entry.ts: the URL of each public entry, by specifier. @param {string} root */
function bundledEngineEntries(root) {
  const urls = [['grapevine', 'index'], ...publicSubpaths(root).map((n) => [`grapevine/${n}`, n])]
    .map(
      ([specifier, file]) => `${JSON.stringify(specifier)}: new URL('./${file}.mjs', import.meta.url).href`,
    )
    .join(', ');
  return `export function engineEntries() { return { ${urls} }; }\n`;
}

/**
 * Packages left to Node: loaded only by the commands that need them (the TypeScript
 * compiler, the LLM client stack with its HTTP client and tokenizer tables, vite, the
 * browser driver), or that find files of their own beside their code (tinypool's worker
 * entry).
 */
const EXTERNAL = [
  'typescript',
  'tsx',
  'tsx/*',
  'esbuild',
  'vite',
  'playwright-core',
  'tinypool',
  'langchain',
  'langchain/*',
  '@langchain/*',
  'openai',
  'openai/*',
  'undici',
  'js-tiktoken',
  'js-tiktoken/*',
];

/** @param {string} root @param {string} outdir */
function importMetaPlugin(root, outdir) {
  const dist = join(root, 'dist');
  return {
    name: 'grapevine-import-meta',
    setup(build) {
      // Our modules only declare things: a world that imports three names of the public API
      // then loads the chunks of those three, not every module the API re-exports.
      build.onResolve({ filter: /^\.{1,2}\// }, async (args) => {
        if (args.pluginData?.resolving) return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (result.errors.length > 0 || result.external) return result;
        const rel = relative(root, result.path);
        const ours = !rel.startsWith('..') && !rel.split(sep).includes('node_modules');
        return ours ? { ...result, sideEffects: false } : result;
      });
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const rel = relative(root, args.path);
        if (rel.startsWith('..') || rel.split(sep).includes('node_modules')) return undefined;
        if (rel === join('src', 'cli', 'engine-entry.ts'))
          return { contents: bundledEngineEntries(root), loader: 'js' };
        const source = unbarrelImports(args.path, await readFile(args.path, 'utf8'), root);
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const compiled = join(dist, rel.replace(/\.ts$/, '.js'));
        const url = relative(outdir, compiled).split(sep).join('/');
        const replacement = `new URL(${JSON.stringify(url)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', replacement), loader: 'ts' };
      });
    },
  };
}

/**
 * zod in the bundle. Its namespace `z` holds ~250 values (every schema kind, `fromJSONSchema`,
 * the code generator of `z.compile`, 60 error-message locales): a bundle that imports `z`
 * keeps all of them, and the start of every command compiled and ran 391 kB of zod (~45 ms
 * of CPU in a fresh process). Two rewrites:
 * - The engine and the built-in worlds get a `z` that holds only the members their code
 *   names (read from tsc's output in dist/, where type-only uses such as `z.core.$ZodType`
 *   are gone); esbuild leaves out the rest (~220 kB of zod remain).
 * - The public entry (src/index.ts re-exports `z` for world files, which may call any of
 *   it) gets the whole of zod as a copy of its own, in chunks that only that entry loads:
 *   esbuild decides what code is used for the whole build, not entry by entry, so sharing
 *   one copy would keep everything in the chunk every command loads. A world file's
 *   schemas then come from another zod instance than the engine's, as they already do when
 *   it imports `zod` itself; zod's `instanceof` checks look at a schema's traits, not its
 *   instance.
 * In both, `z.locales` holds English only (zod's own default, which zod imports directly;
 * nothing here reads the 370 kB of other translations). The library entry (dist/src/, tsc's
 * output) keeps zod untouched.
 */
const ZOD_DIR = join('node_modules', 'zod');
const ZOD_LOCALE_IMPORTERS =
  /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/;
const ENGLISH_ONLY = "export { default as en } from './en.js';\n";

/** The members of `z` that the compiled engine and worlds name, sorted. @param {string} root */
async function zodMembersUsed(root) {
  const { z } = await import('zod');
  const used = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js'))
        for (const m of readFileSync(path, 'utf8').matchAll(/(?<![\w$.])z\s*\.\s*([A-Za-z_$][\w$]*)/g))
          if (Object.hasOwn(z, m[1])) used.add(m[1]);
    }
  };
  for (const dir of ['src', 'worlds']) {
    const compiled = join(root, 'dist', dir);
    if (!existsSync(compiled)) throw new Error(`bundle-cli: ${compiled} is missing (tsc writes it first)`);
    walk(compiled);
  }
  return [...used].sort();
}

/** @param {string} root @param {readonly string[]} members */
function zodPlugin(root, members) {
  const zod = join(root, ZOD_DIR);
  const publicEntry = join(root, 'src', 'index.ts');
  const load = async (path) => ({
    contents: await readFile(path, 'utf8'),
    resolveDir: dirname(path),
    loader: 'js',
  });
  return {
    name: 'grapevine-zod',
    setup(build) {
      build.onResolve({ filter: /^zod$/ }, (args) =>
        args.importer === publicEntry
          ? { path: join(zod, 'index.js'), namespace: 'zod-full' }
          : { path: 'z', namespace: 'zod-used' },
      );
      // The engine's `z`: a namespace of the members it names, from zod's own modules.
      build.onLoad({ filter: /^z$/, namespace: 'zod-used' }, () => ({
        contents: `export * as z from './members';\n`,
        resolveDir: zod,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/members$/, namespace: 'zod-used' }, () => ({
        path: 'members',
        namespace: 'zod-used',
      }));
      build.onLoad({ filter: /^members$/, namespace: 'zod-used' }, () => ({
        contents: `export { ${members.join(', ')} } from './v4/classic/external.js';\n`,
        resolveDir: zod,
        loader: 'js',
      }));
      // The public entry's copy: every file of it in its own namespace.
      build.onResolve({ filter: /^\.{1,2}\//, namespace: 'zod-full' }, (args) => ({
        path: join(args.resolveDir, args.path),
        namespace:
          ZOD_LOCALE_IMPORTERS.test(args.importer) && args.path === '../locales/index.js'
            ? 'zod-full-en'
            : 'zod-full',
      }));
      build.onLoad({ filter: /.*/, namespace: 'zod-full' }, (args) => load(args.path));
      build.onLoad({ filter: /.*/, namespace: 'zod-full-en' }, (args) => ({
        contents: ENGLISH_ONLY,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
      // English only in the engine's zod too.
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!ZOD_LOCALE_IMPORTERS.test(args.importer)) return undefined;
        return { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' };
      });
      build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        contents: ENGLISH_ONLY,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/**
 * commander requires `node:child_process` when it loads, for executable subcommands, which the
 * CLI has none of; loading it (with net, dgram and their streams) cost every start ~6-10 ms
 * of CPU. In the bundle commander gets a stand-in that loads it on the first spawn.
 */
const COMMANDER_COMMAND = /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/;

function lazyChildProcessPlugin() {
  return {
    name: 'grapevine-lazy-child-process',
    setup(build) {
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        COMMANDER_COMMAND.test(args.importer)
          ? { path: 'child_process', namespace: 'lazy-builtin' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
        contents:
          "let loaded;\nconst load = () => (loaded ??= require('node:child_process'));\nmodule.exports = { spawn: (...args) => load().spawn(...args) };\n",
        loader: 'js',
      }));
    },
  };
}

/**
 * These of Node's own modules, which a run mostly does not use (zlib: gzip logs only), are
 * loaded when their first member is used, not when the chunk that names them loads (zlib, os
 * and timers/promises together: ~2-3 ms of CPU in a fresh process). Each import of one becomes
 * a CommonJS stand-in whose members (the module's export names, read here at build time: the
 * same Node runs the build and the CLI) are getters that `require` the module on first use.
 * Not for every module: a stand-in per importing module of fs, path and crypto (38 in the run's
 * chunk) cost more page faults (~370) than it saved.
 */
const LAZY_BUILTINS = [
  'node:zlib',
  'node:os',
  'node:timers/promises',
  'node:fs/promises',
  'node:stream',
  'node:stream/promises',
  'node:http',
  'node:net',
  'node:util',
];

function lazyBuiltinsPlugin() {
  return {
    name: 'grapevine-lazy-builtins',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) =>
        args.kind === 'import-statement' && LAZY_BUILTINS.includes(args.path)
          ? { path: args.path, namespace: 'lazy-node' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-node' }, (args) => {
        const names = Object.keys(createRequire(import.meta.url)(args.path)).filter((n) => n !== 'default');
        return {
          contents: [
            'let loaded;',
            `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
            `for (const name of ${JSON.stringify(names)})`,
            '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
            '',
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/** The command whose chunks are merged into one (see {@link mergeEngineChunks}). */
const MERGED_COMMAND = 'src/cli/commands/run.ts';

/**
 * esbuild splits the code shared by its entries (the CLI, its ~20 lazily imported commands,
 * each world) into one chunk per set of entries that reach it: `grapevine run` of a built-in
 * world loaded 37 files, most of them under 5 kB. Node's ES module loader spends ~0.5-1 ms of
 * CPU on each file it resolves, reads, links and evaluates, whatever its size (30 modules of
 * two lines: ~28 ms against ~2 ms for the same code in one). This second pass (Rolldown, over
 * esbuild's output, without changing the code) puts every chunk that the `run` command imports
 * statically into one file, and those the CLI's own entry imports into another (`--version`
 * and `--help` load no engine): a run of a built-in world loads 11 files. Commands that share
 * the engine load that file; a world's own chunks stay apart.
 *
 * @param {string} staged esbuild's output directory
 * @param {string} outdir where the merged files go
 * @param {import('esbuild').Metafile} metafile esbuild's metafile of `staged`
 * @param {Record<string, string>} entryFiles the bundle's entries (see {@link bundleEntries})
 */
async function mergeEngineChunks(root, staged, outdir, metafile, entryFiles) {
  const { rolldown } = await import('rolldown');
  const outputs = metafile.outputs;
  const staticClosure = (start) => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0)
      for (const imp of outputs[queue.pop()].imports)
        if (imp.kind === 'import-statement' && !imp.external && !seen.has(imp.path)) {
          seen.add(imp.path);
          queue.push(imp.path);
        }
    return seen;
  };
  const out = (file) => relative(root, join(staged, file)).split(sep).join('/');
  const command = Object.keys(outputs).find((o) => outputs[o].entryPoint === MERGED_COMMAND);
  if (!command) throw new Error(`bundle-cli: no output holds ${MERGED_COMMAND}`);
  const entries = Object.keys(entryFiles).map((name) => out(`${name}.js`));
  const cliStart = staticClosure(out('main.js'));
  const merged = new Set(
    [...staticClosure(command)]
      .filter((o) => !cliStart.has(o) && !entries.includes(o))
      .map((o) => join(root, o)),
  );
  // the chunks the CLI's entry imports (shared with the engine: errors, the version, esbuild's
  // helpers) go into one file of their own
  const cli = new Set([...cliStart].filter((o) => !entries.includes(o)).map((o) => join(root, o)));
  const bundle = await rolldown({
    input: Object.fromEntries(Object.keys(entryFiles).map((name) => [name, join(staged, `${name}.js`)])),
    // esbuild's output names packages and Node's modules by bare specifiers: they stay imports.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    platform: 'node',
    treeshake: false,
    // what the group below needs when the CLI entry's chunks stay out of it (an entry may
    // export more than its source for other chunks to import)
    preserveEntrySignatures: 'allow-extension',
    logLevel: 'warn',
  });
  await bundle.write({
    dir: outdir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[hash].js',
    // the CLI entry's own chunks, which the merged ones import, stay out of it
    codeSplitting: {
      groups: [
        { name: 'engine', test: (id) => merged.has(id), includeDependenciesRecursively: false },
        { name: 'cli', test: (id) => cli.has(id), includeDependenciesRecursively: false },
      ],
    },
  });
  await bundle.close();
}

/**
 * Writes the bundle into `<root>/dist/cli/`.
 * @param {string} root the package root
 */
export async function bundleCli(root) {
  const { build } = await import('esbuild');
  const outdir = join(root, 'dist', 'cli');
  const staged = join(root, 'dist', '.cli-chunks');
  const entryFiles = bundleEntries(root);
  rmSync(staged, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entryFiles).map(([name, src]) => [name, join(root, src)])),
    outdir: staged,
    metafile: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // rxjs hands Node its CommonJS build, which cannot be tree-shaken (430 kB per start):
    // the bundle takes its ES module build, the same code (`rxjs/internal/X` maps to its file).
    alias: { rxjs: join(root, 'node_modules/rxjs/dist/esm') },
    // Bundled CommonJS packages that require Node's own modules need a real `require` (pure:
    // the merge pass drops it from the chunks that never use it; merged, 28 were made at start).
    banner: {
      js: "import { createRequire as __gvCreateRequire } from 'node:module';\nconst require = /* @__PURE__ */ __gvCreateRequire(import.meta.url);",
    },
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    plugins: [
      zodPlugin(root, await zodMembersUsed(root)),
      lazyChildProcessPlugin(),
      lazyBuiltinsPlugin(),
      // the URLs are those of the files' final place, dist/cli/
      importMetaPlugin(root, outdir),
    ],
  });
  rmSync(outdir, { recursive: true, force: true });
  await mergeEngineChunks(root, staged, outdir, metafile, entryFiles);
  rmSync(staged, { recursive: true, force: true });
  await toCommonJs(outdir);
  writeEsmFacades(outdir, ['index', ...publicSubpaths(root)]);
}

/**
 * Rewrites every file of the bundle as a CommonJS module (same code; esbuild's splitting
 * writes ES modules only), so that bin/grapevine.mjs can compile the files a run loads with
 * the V8 code cache the build writes beside them (see bin/load-cli.cjs): Node 20 has no
 * code cache for ES modules. `import.meta.url` becomes the file's own URL, and a chunk's
 * `import()` of another chunk a `require` (an ES import of a CommonJS file would compile it
 * without the cache); packages and Node's modules keep their `import()`. World files that
 * import `grapevine` get this bundle's index.js: Node gives an ES module that imports a
 * CommonJS file its named exports (esbuild writes them where Node's export scan finds them)
 * and the same module instances the CLI holds.
 *
 * @param {string} outdir
 */
async function toCommonJs(outdir) {
  const { transform } = await import('esbuild');
  const { parseAst } = await import('rolldown/parseAst');
  for (const name of readdirSync(outdir)) {
    if (!name.endsWith('.js')) continue;
    const file = join(outdir, name);
    const { code } = await transform(readFileSync(file, 'utf8'), {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      loader: 'js',
      define: { 'import.meta.url': '__gvFileUrl' },
      banner: "var __gvFileUrl = require('node:url').pathToFileURL(__filename).href;",
      logLevel: 'warning',
    });
    writeFileSync(file, asciiOnly(rewriteImports(code, parseAst(code)), parseAst));
  }
  // the package is "type": "module"; these files are CommonJS
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  // import() in code that V8 compiled from a vm.Script has no loader in Node 20 (without an
  // experimental flag): the others go through this file, which Node compiles itself.
  writeFileSync(join(outdir, DYNAMIC_IMPORT), 'module.exports = (specifier) => import(specifier);\n');
}

const DYNAMIC_IMPORT = 'dynamic-import.cjs';

/**
 * The file with its last non-ASCII characters (in comments esbuild kept, e.g. xstate's
 * "actor’s") written as \u escapes. Node decodes an ASCII file on a fast path and V8 keeps
 * its source one byte a character; one curly quote made the 600 kB run chunk a two-byte
 * string, decoded slowly (~10 ms at a start). Only when the parsed code stays the same.
 * @param {string} code @param {(code: string) => unknown} parseAst
 */
function asciiOnly(code, parseAst) {
  const ascii = code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii === code) return code;
  const shape = (src) =>
    JSON.stringify(parseAst(src), (k, v) => (k === 'start' || k === 'end' ? undefined : v));
  // a regular expression or template with such a character (esbuild leaves those as written) stays as it is
  return shape(ascii) === shape(code) ? ascii : code;
}

/**
 * `import("./chunk.js")` becomes a `require` of it, any other `import(x)`
 * `require("./dynamic-import.cjs")(x)`.
 * @param {string} code @param {unknown} ast
 */
function rewriteImports(code, ast) {
  const found = [];
  const walk = (node) => {
    if (Array.isArray(node)) for (const n of node) walk(n);
    else if (node !== null && typeof node === 'object') {
      if (node.type === 'ImportExpression') found.push(node);
      for (const key of Object.keys(node)) walk(node[key]);
    }
  };
  walk(ast);
  let out = '';
  let at = 0;
  for (const node of found.sort((a, b) => a.start - b.start)) {
    if (code.slice(node.start, node.start + 6) !== 'import')
      throw new Error(`bundle-cli: no import() at offset ${node.start}`);
    const chunk = node.source.type === 'Literal' && /^\.\/[^/]+\.js$/.test(node.source.value);
    out += code.slice(at, node.start);
    out += chunk
      ? `Promise.resolve().then(() => require(${JSON.stringify(node.source.value)}))`
      : `require(${JSON.stringify(`./${DYNAMIC_IMPORT}`)})`;
    at = chunk ? node.end : node.start + 6;
  }
  return out + code.slice(at);
}
