// vitest setup file (run before each test file): the temporary folders a file made with
// tempDir are removed once its tests are done (its afterAll hooks run first). An installed
// package folder (test/package) holds ~190 MB: on a loaded machine that takes a while.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

afterAll(removeTempDirs, 600_000);
