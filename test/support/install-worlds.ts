// vitest setup file: tests that call CLI commands in-process (audit, fork, replay…) find the
// built-in worlds by id, as bin/grapevine.mjs makes them findable for the real CLI.
import { installWorlds } from '../../src/cli/world-catalog.ts';
import { BUILTIN_CONTRIBUTIONS } from '../../worlds/index.ts';

installWorlds(BUILTIN_CONTRIBUTIONS);
