// The house rules of docs/ARCHITECTURE.md, checked over the import graph of the sources.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycles, type ImportEdge, importGraph } from './import-graph.ts';

const edges = importGraph(resolve('.'), ['src', 'worlds', 'bin']);
const show = (e: ImportEdge) => `${e.from} -> ${e.to}`;

function violations(rule: (e: ImportEdge) => boolean): string[] {
  return edges.filter(rule).map(show);
}

/** The engine's floors, lowest first: a module imports only modules on lower floors. */
const FLOORS: Record<string, number> = {
  core: 0,
  stats: 0,
  clock: 1,
  network: 1,
  memory: 1,
  llm: 1,
  bus: 2,
  agent: 3,
  world: 4,
  replay: 5,
  validate: 5,
  metrics: 6,
  report: 6,
  validity: 6,
  sweep: 7,
  // the shipped local LLM server: above every engine floor, so no engine module can start it
  // or know what its responders know (worlds hand the CLI their responders)
  'llm-server': 8,
  cli: 9,
};

function moduleOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

describe('import rules', () => {
  it('reads a graph (the rules below are not vacuous)', () => {
    expect(edges.length).toBeGreaterThan(300);
    // bin loads the bundle (main.js and its worlds entry, worlds/index.ts bundled) through its loader.
    expect(edges.some((e) => e.from === 'bin/grapevine.mjs' && e.to === 'bin/load-cli.cjs')).toBe(true);
  });

  it('nothing under src/ imports worlds/', () => {
    expect(violations((e) => e.from.startsWith('src/') && e.to.startsWith('worlds/'))).toEqual([]);
  });

  it('worlds import only the public API (src/index.ts) from the engine', () => {
    expect(
      violations((e) => e.from.startsWith('worlds/') && e.to.startsWith('src/') && e.to !== 'src/index.ts'),
    ).toEqual([]);
  });

  it('no CLI command file imports another', () => {
    const command = /^src\/cli\/commands\//;
    expect(violations((e) => command.test(e.from) && command.test(e.to))).toEqual([]);
  });

  it('a module imports only modules on lower floors, never upwards', () => {
    const upward = (e: ImportEdge) => {
      const [a, b] = [moduleOf(e.from), moduleOf(e.to)];
      return a !== undefined && b !== undefined && a !== b && !(FLOORS[b] < FLOORS[a]);
    };
    expect(violations(upward)).toEqual([]);
  });

  it('the local LLM server imports nothing of the engine but core', () => {
    const server = (p: string) => p.startsWith('src/llm-server/');
    expect(
      violations(
        (e) => server(e.from) && e.to.startsWith('src/') && !server(e.to) && moduleOf(e.to) !== 'core',
      ),
    ).toEqual([]);
    expect(edges.some((e) => server(e.from) && moduleOf(e.to) === 'core')).toBe(true);
  });

  it('only the CLI imports the local LLM server', () => {
    expect(
      violations(
        (e) =>
          e.to.startsWith('src/llm-server/') &&
          e.from.startsWith('src/') &&
          !['cli', 'llm-server'].includes(moduleOf(e.from) ?? '') &&
          e.from !== 'src/index.ts',
      ),
    ).toEqual([]);
  });

  it('nothing inside src/ imports the public face src/index.ts', () => {
    expect(violations((e) => e.from.startsWith('src/') && e.to === 'src/index.ts')).toEqual([]);
  });

  it('has no import cycles at load time (type-only imports are erased and order nothing)', () => {
    expect(findCycles(edges.filter((e) => !e.typeOnly))).toEqual([]);
  });
});
