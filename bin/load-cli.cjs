'use strict';
// Loads the bundled CLI (dist/cli/main.js and worlds.js) for bin/grapevine.mjs. Required, not
// imported: an ES import of a CommonJS file makes Node scan its source (and every file it
// re-exports) for export names first, ~40 ms for this bundle.
//
// Compiles the bundled CLI (dist/cli/*.js, CommonJS, see scripts/bundle-cli.mjs) with the V8
// code cache that `npm run build` writes beside each file (<file>.js.v8): V8 then reads the
// bytecode instead of parsing and compiling ~700 kB of JavaScript at every start. Node 20 has
// no compile cache of its own (22 has module.enableCompileCache); this one is written once,
// after a warm-up run, so it also holds the functions a run compiles lazily. A cache that V8
// does not accept (another Node, other V8 flags, a file of another length) is ignored: the file is
// compiled as usual. V8 checks a cache against its own version, its flags and the source's
// length, not its text: the build writes a file and its cache together, and a dist/ edited by
// hand must be rebuilt. Hand-written rather than the v8-compile-cache package, which writes
// its cache right after compiling (no lazily compiled function in it) into a temporary
// directory at the first run.
//
// TypeScript's compiler gets the same treatment when a cold type check of a world file loads
// it: its cache (dist/cli/typescript-<version>.js.v8) is written by a warm-up check, and spares
// the compile of 9 MB of JavaScript and of the functions a check runs.
const Module = require('node:module');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, sep } = require('node:path');
const vm = require('node:vm');

const DIR = join(__dirname, '..', 'dist', 'cli') + sep;
/** Counts of the files compiled here, for the tests (GRAPEVINE_CODE_CACHE=report). */
const seen = { files: 0, cached: 0, rejected: 0 };
/** How TypeScript's compiler (loaded to type-check a world file) was compiled, for the tests. */
const compilerSeen = { loaded: false, cached: false };
/** TypeScript's compiler, whose 9 MB compile the cache saves at each cold type check of a world file. */
const COMPILER = `${sep}typescript${sep}lib${sep}typescript.js`;

/**
 * Where the cache of TypeScript's compiler goes: named by its version, since V8 checks a cache
 * against the source's length only. Undefined for another copy of TypeScript than the
 * engine's own (a world's node_modules may hold one).
 */
function compilerCacheFile(filename) {
  if (!filename.endsWith(COMPILER)) return undefined;
  try {
    if (filename !== require.resolve('typescript')) return undefined;
    const { version } = JSON.parse(readFileSync(join(filename, '..', '..', 'package.json'), 'utf8'));
    return typeof version === 'string' && /^[\w.+-]+$/.test(version)
      ? join(DIR, `typescript-${version}.js.v8`)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes Node compile the bundle's files, and TypeScript's compiler, through vm.Script with
 * their cache. With `write` (the build's warm-up runs) no cache is read, and when the process
 * exits the cache is written of the bundle's files (`'cli'`) or of the compiler and the bundle's
 * files that have none yet (`'compiler'`).
 * @param {{ write?: false | 'cli' | 'compiler', report?: boolean }} [options]
 */
function install({ write = false, report = false } = {}) {
  const compile = Module.prototype._compile;
  const made = [];
  Module.prototype._compile = function (content, filename) {
    const own = filename.startsWith(DIR) && filename.endsWith('.js') && !filename.includes(sep, DIR.length);
    const cacheFile = own ? `${filename}.v8` : compilerCacheFile(filename);
    if (!cacheFile) return compile.call(this, content, filename);
    let cachedData;
    if (!write) {
      try {
        cachedData = readFileSync(cacheFile);
      } catch {}
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (own) {
      seen.files++;
      if (cachedData) seen[script.cachedDataRejected ? 'rejected' : 'cached']++;
    } else {
      compilerSeen.loaded = true;
      compilerSeen.cached = cachedData !== undefined && !script.cachedDataRejected;
    }
    // the compiler's warm-up also writes the bundle files that the run's warm-up did not load
    if (write === 'cli' ? own : write === 'compiler' && (!own || !existsSync(cacheFile)))
      made.push([script, cacheFile]);
    const wrapper = script.runInThisContext();
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  if (write || report)
    process.on('exit', () => {
      for (const [script, file] of made) writeFileSync(file, script.createCachedData());
      if (report)
        process.stderr.write(
          `code cache: ${JSON.stringify(compilerSeen.loaded ? { ...seen, typescript: compilerSeen.cached } : seen)}\n`,
        );
    });
}

/**
 * The CLI's `main` and the built-in worlds' contributions, or undefined when dist/ is missing.
 * GRAPEVINE_CODE_CACHE=write (the build's warm-up run) writes the bundle's cache instead of
 * reading it, =write-compiler TypeScript's (a warm-up type check of a world file);
 * =report prints, at exit, how many files were compiled with an accepted cache.
 */
function loadCli() {
  const mode = process.env.GRAPEVINE_CODE_CACHE;
  const write = mode === 'write' ? 'cli' : mode === 'write-compiler' ? 'compiler' : false;
  install({ write, report: mode === 'report' });
  let main;
  try {
    main = require(join(DIR, 'main.js')).main;
  } catch (err) {
    if (err?.code === 'MODULE_NOT_FOUND' && !existsSync(join(DIR, 'main.js'))) return undefined;
    throw err;
  }
  return { main, contributions: require(join(DIR, 'worlds.js')).BUILTIN_CONTRIBUTIONS };
}

module.exports = { loadCli };
