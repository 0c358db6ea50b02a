// vitest setup file (run before each test file): the temporary folders a file made with
// tempDir are removed once its tests are done (its afterAll hooks run first).
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.ts';

afterAll(removeTempDirs);
