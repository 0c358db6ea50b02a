#!/usr/bin/env node
// Entry point of the grapevine CLI: runs the bundled engine (dist/cli/, built by `npm run
// build`, see scripts/bundle-cli.mjs) with the built-in worlds and the commands they
// contribute. TypeScript is loaded only when a user's .ts world file is given (see
// src/cli/load-world.ts).
import { loadCli } from './load-cli.cjs';

// A closed pipe (`grapevine worlds | head`) is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
// the bundle, compiled with the V8 code cache the build wrote (see load-cli.cjs)
const cli = loadCli();
if (!cli) {
  process.stderr.write('grapevine: this checkout is not built (dist/ is missing)\nhint: run npm run build\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2), cli.contributions);
// When nothing is left to do (no handle, timer or request but the standard streams, no output
// still queued, no 'beforeExit' listener), exit now rather than let Node free the heap first
// piece by piece: the kernel frees it at once (a run of 10^5 agents saves ~20 ms).
if (finished()) process.exit();

function finished() {
  const active = process.getActiveResourcesInfo();
  return (
    active.length <= 3 &&
    active.every((kind) => kind === 'PipeWrap' || kind === 'TTYWrap') &&
    process.stdout.writableLength === 0 &&
    process.stderr.writableLength === 0 &&
    process.listenerCount('beforeExit') === 0
  );
}
