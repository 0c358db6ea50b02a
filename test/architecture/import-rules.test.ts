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
  cli: 8,
};

function moduleOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/**
 * The rooms of src/replay and the rooms each may import (besides its own): the log's format
 * (line codec, chain, split, patch, delta and index formats) below everything; the reader and
 * the writer each on the format alone, never on each other; the continuations (rerun, fork,
 * resume) on all three.
 */
const REPLAY_ROOMS: Record<string, readonly string[]> = {
  format: [],
  read: ['format'],
  write: ['format'],
  continue: ['format', 'read', 'write'],
};

function replayRoomOf(path: string): string | undefined {
  return /^src\/replay\/([^/]+)\//.exec(path)?.[1];
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

  it('the rooms of src/replay import only the rooms below them', () => {
    const rooms = edges.filter((e) => replayRoomOf(e.from) !== undefined && replayRoomOf(e.to) !== undefined);
    expect(rooms.length).toBeGreaterThan(40);
    expect(Object.keys(REPLAY_ROOMS).every((r) => rooms.some((e) => replayRoomOf(e.from) === r))).toBe(true);
    const crossing = (e: ImportEdge) => {
      const [a, b] = [replayRoomOf(e.from) as string, replayRoomOf(e.to) as string];
      return a !== b && !REPLAY_ROOMS[a]?.includes(b);
    };
    expect(violations((e) => rooms.includes(e) && crossing(e))).toEqual([]);
  });

  it('other modules, bin/ and bench/ reach src/replay only through its index.ts', () => {
    const benchEdges = importGraph(resolve('.'), ['bench']);
    expect(benchEdges.some((e) => e.to === 'src/replay/index.ts')).toBe(true);
    const inside = (path: string) => path.startsWith('src/replay/');
    const through = [...edges, ...benchEdges].filter((e) => !inside(e.from) && inside(e.to));
    expect(through.length).toBeGreaterThan(10);
    expect(through.filter((e) => e.to !== 'src/replay/index.ts').map(show)).toEqual([]);
  });

  it('nothing inside src/ imports the public face src/index.ts', () => {
    expect(violations((e) => e.from.startsWith('src/') && e.to === 'src/index.ts')).toEqual([]);
  });

  it('has no import cycles at load time (type-only imports are erased and order nothing)', () => {
    expect(findCycles(edges.filter((e) => !e.typeOnly))).toEqual([]);
  });
});
