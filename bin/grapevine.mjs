#!/usr/bin/env node
// Entry point of the grapevine CLI: registers the TypeScript loader (so that the engine's
// sources and users' own .ts world files load alike) and starts the CLI.
import { register } from 'tsx/esm/api';

register();
// A closed pipe (`grapevine worlds | head`) is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main } = await import('../src/cli/main.ts');
// the built-in worlds' validation cases, loaded only by `grapevine validate` (src never imports worlds/)
const validationCases = async () => (await import('../worlds/validation.ts')).builtinValidationCases();
process.exitCode = await main(process.argv.slice(2), { validationCases });
