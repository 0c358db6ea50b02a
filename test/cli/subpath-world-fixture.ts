// A user's world file that imports the package's subpath entries as well as `grapevine`,
// for the tests that run it from a folder outside the checkout (world-file.test.ts, and
// test/package/packed.test.ts from an installed package).

/**
 * The world's source. Its summary reports a Wilson interval from `grapevine/analysis`, the
 * log format from `grapevine/replay`, and whether an error class of `grapevine/replay` is a
 * `GrapevineError` of `grapevine` (true only when both entries share the engine's modules).
 */
export const SUBPATH_WORLD = `import { defineAgentMachine, defineWorld, GrapevineError, z } from 'grapevine';
import { wilson } from 'grapevine/analysis';
import { LOG_FORMAT, LogFormatError } from 'grapevine/replay';

const agent = defineAgentMachine({ id: 'a', regions: { r: { initial: 's', states: { s: {} } } } });

export const world = defineWorld({
  id: 'subpaths',
  version: '1.0.0',
  description: 'a world that imports subpath entries',
  params: z.object({ n: z.number().int().default(10).describe('agents') }),
  create: ({ params }) => ({
    size: params.n,
    agents: agent,
    turnPolicy: 'simultaneous',
    policy: () => {},
    summary: () => {
      const ci = wilson(3, params.n);
      const shared = new LogFormatError('x') instanceof GrapevineError;
      return { lo: ci.lo, hi: ci.hi, format: LOG_FORMAT, shared };
    },
  }),
});
`;

/** The 95% Wilson score interval of 3 successes in 10 trials, to four decimals (Wilson 1927). */
export const WILSON_3_OF_10 = { lo: 0.1078, hi: 0.6032 };

/** A world file that imports a subpath the package does not export. */
export const UNKNOWN_SUBPATH_WORLD = `import { defineWorld } from 'grapevine';
import { internals } from 'grapevine/internals';
export const world = defineWorld(internals);
`;
