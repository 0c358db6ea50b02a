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
const Module = require('node:module');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, sep } = require('node:path');
const vm = require('node:vm');

const DIR = join(__dirname, '..', 'dist', 'cli') + sep;
/** Counts of the files compiled here, for the tests (GRAPEVINE_CODE_CACHE=report). */
const seen = { files: 0, cached: 0, rejected: 0 };

/**
 * Makes Node compile the bundle's files through vm.Script with their cache. With `write`
 * (the build's warm-up run) no cache is read, and each file's is written when the process exits.
 * @param {{ write?: boolean, report?: boolean }} [options]
 */
function install({ write = false, report = false } = {}) {
  const compile = Module.prototype._compile;
  const made = [];
  Module.prototype._compile = function (content, filename) {
    if (!filename.startsWith(DIR) || !filename.endsWith('.js') || filename.includes(sep, DIR.length))
      return compile.call(this, content, filename);
    const cacheFile = `${filename}.v8`;
    let cachedData;
    if (!write) {
      try {
        cachedData = readFileSync(cacheFile);
      } catch {}
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    seen.files++;
    if (cachedData) seen[script.cachedDataRejected ? 'rejected' : 'cached']++;
    if (write) made.push([script, cacheFile]);
    const wrapper = script.runInThisContext();
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  if (write || report)
    process.on('exit', () => {
      for (const [script, file] of made) writeFileSync(file, script.createCachedData());
      if (report) process.stderr.write(`code cache: ${JSON.stringify(seen)}\n`);
    });
}

/**
 * The CLI's `main` and the built-in worlds' contributions, or undefined when dist/ is missing.
 * GRAPEVINE_CODE_CACHE=write (the build's warm-up run) writes the cache instead of reading it;
 * =report prints, at exit, how many files were compiled with an accepted cache.
 */
function loadCli() {
  const mode = process.env.GRAPEVINE_CODE_CACHE;
  install({ write: mode === 'write', report: mode === 'report' });
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
