// Bundles the CLI for a fast start (called by scripts/build.mjs after tsc has written dist/):
// esbuild turns the ~400 ES modules of src/ and worlds/ into a few files in dist/cli/, one
// entry for the CLI, one for the built-in worlds and one for the public API, the rest split
// into chunks that a command imports only when it runs (each command, each world). Packages
// stay external (node_modules, loaded by Node as before). The library entry of the package
// (dist/src/index.js and its .d.ts, from tsc) is not touched.
//
// Two rewrites keep the bundled code behaving as the compiled files do:
// - `import.meta.url` in a source file becomes the URL that file has in dist/ (tsc's output),
//   so the data files, type declarations, worker modules and hooks it names by a relative
//   URL are found where the build put them. Every output file lies in dist/cli/, so one
//   relative URL per source file is right whichever output file its code lands in.
// - src/cli/engine-entry.ts names the bundle's public entry (dist/cli/index.js): a user's
//   world file that imports `grapevine` then shares the CLI's module instances.
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { unbarrelImports } from './barrel-imports.mjs';

/** Output files of the bundle, named as bin/grapevine.mjs and engine-entry expect them. */
const ENTRIES = {
  main: 'src/cli/main.ts',
  worlds: 'worlds/index.ts',
  index: 'src/index.ts',
};

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
        if (rel === join('src', 'cli', 'engine-entry.ts')) {
          const contents =
            "export function engineEntry() { return new URL('./index.js', import.meta.url).href; }\n";
          return { contents, loader: 'js' };
        }
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
 * zod's namespace objects (`z`, which every schema of ours is built from, and `z.core`) re-export
 * all ~60 of its error-message locales as `locales`, which kept 370 kB of translations in the
 * start-up chunk of every command. Nothing here reads `z.locales` (zod's own default, English, is imported
 * by zod directly): in the bundle `z.locales` holds English only. The library entry (dist/src/,
 * tsc's output) keeps zod untouched.
 */
const ZOD_LOCALE_IMPORTERS =
  /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/;

function zodLocalesPlugin() {
  return {
    name: 'grapevine-zod-locales',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!ZOD_LOCALE_IMPORTERS.test(args.importer)) return undefined;
        return { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' };
      });
      build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        contents: "export { default as en } from './en.js';\n",
        resolveDir: join(args.path, '..'),
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
 * Writes the bundle into `<root>/dist/cli/`.
 * @param {string} root the package root
 */
export async function bundleCli(root) {
  const { build } = await import('esbuild');
  const outdir = join(root, 'dist', 'cli');
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, src]) => [name, join(root, src)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // rxjs hands Node its CommonJS build, which cannot be tree-shaken (430 kB per start):
    // the bundle takes its ES module build, the same code.
    alias: { rxjs: join(root, 'node_modules/rxjs/dist/esm/index.js') },
    // Bundled CommonJS packages that require Node's own modules need a real `require`.
    banner: {
      js: "import { createRequire as __gvCreateRequire } from 'node:module';\nconst require = __gvCreateRequire(import.meta.url);",
    },
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    plugins: [zodLocalesPlugin(), lazyChildProcessPlugin(), importMetaPlugin(root, outdir)],
  });
}
