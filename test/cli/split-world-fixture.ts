// A world split over two files, for the tests of a world's local modules
// (world-file-modules.test.ts, world-module-hashes.test.ts): the world file imports
// 'grapevine' and a helper in lib/, docs/examples/gossip.ts, which imports 'grapevine' too.
// Both tests write the same files: a passed type check is remembered by their content
// (test/support/shared-type-check-cache.ts), so a test run checks them cold once.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The world file: the helper's world under another id, after a probe of its own `grapevine`. */
export const SPLIT_MAIN = `import { ConfigError } from 'grapevine';
import { world as gossip } from './lib/gossip.ts';

if (!(new ConfigError('probe') instanceof Error)) throw new Error('no engine');
export const world = { ...gossip, id: 'gossip-split', description: 'gossip, from a helper module' };
`;

/** Writes main.ts and lib/gossip.ts into `dir` (no package.json); returns the helper's bytes. */
export function writeSplitWorld(dir: string): Buffer {
  const helper = readFileSync(resolve('docs/examples/gossip.ts'));
  mkdirSync(join(dir, 'lib'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'gossip.ts'), helper);
  writeFileSync(join(dir, 'main.ts'), SPLIT_MAIN);
  return helper;
}
