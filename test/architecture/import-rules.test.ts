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
  public: 10,
};

/** The package's public entries: `grapevine` (src/index.ts) and `grapevine/<name>` (src/public/<name>.ts). */
function isEntry(path: string): boolean {
  return path === 'src/index.ts' || /^src\/public\/[^/]+\.ts$/.test(path);
}

/** A CLI command's file (its helpers live in a folder of the same name beside it). */
const COMMAND = /^src\/cli\/commands\/[^/]+\.ts$/;

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

  it('worlds import only the public entries (src/index.ts, src/public/*.ts) from the engine', () => {
    expect(
      violations((e) => e.from.startsWith('worlds/') && e.to.startsWith('src/') && !isEntry(e.to)),
    ).toEqual([]);
    // the rule sees the subpaths: built-in worlds use them
    expect(edges.some((e) => e.from.startsWith('worlds/') && e.to === 'src/public/llm.ts')).toBe(true);
  });

  it('no CLI command file imports another', () => {
    expect(violations((e) => COMMAND.test(e.from) && COMMAND.test(e.to))).toEqual([]);
  });

  it("a command's own folder (src/cli/commands/<command>/) serves that command only", () => {
    const owner = (path: string) => /^src\/cli\/commands\/([^/]+)\//.exec(path)?.[1];
    const commandOf = (path: string) => /^src\/cli\/commands\/([^/.]+)\.ts$/.exec(path)?.[1] ?? owner(path);
    expect(violations((e) => owner(e.to) !== undefined && commandOf(e.from) !== owner(e.to))).toEqual([]);
    expect(edges.some((e) => e.from === 'src/cli/commands/fork.ts' && owner(e.to) === 'fork')).toBe(true);
  });

  it('a file of the shared CLI folder serves the program, a public entry, or two commands or more', () => {
    // who reaches each file of src/cli/ (not its commands) through files of that folder only
    const shared = (path: string) => /^src\/cli\/[^/]+\.ts$/.test(path) && path !== 'src/cli/main.ts';
    const reached = (starts: string[]) => {
      const seen = new Set<string>();
      const queue = [...starts];
      while (queue.length > 0) {
        const from = queue.pop();
        for (const e of edges)
          if (e.from === from && shared(e.to) && !seen.has(e.to)) {
            seen.add(e.to);
            queue.push(e.to);
          }
      }
      return seen;
    };
    const files = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
    const commands = files.filter((f) => COMMAND.test(f));
    const folderOf = (command: string) => command.replace(/\.ts$/, '/');
    const users = new Map<string, string[]>();
    const use = (user: string, starts: string[]) => {
      for (const f of reached(starts)) users.set(f, [...(users.get(f) ?? []), user]);
    };
    use('main', ['src/cli/main.ts']);
    for (const entry of files.filter(isEntry)) use('entry', [entry]);
    for (const c of commands) use(c, [c, ...files.filter((f) => f.startsWith(folderOf(c)))]);
    const lonely = files
      .filter(shared)
      .filter((f) => {
        const u = users.get(f) ?? [];
        return !u.includes('main') && !u.includes('entry') && u.length < 2;
      })
      .map((f) => `${f} <- ${(users.get(f) ?? ['nobody']).join(', ')}`);
    expect(lonely).toEqual([]);
    expect(commands.length).toBeGreaterThan(15);
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
          !isEntry(e.from),
      ),
    ).toEqual([]);
  });

  it('nothing inside src/ imports a public entry (src/index.ts, src/public/*.ts)', () => {
    expect(violations((e) => e.from.startsWith('src/') && isEntry(e.to))).toEqual([]);
  });

  it('has no import cycles at load time (type-only imports are erased and order nothing)', () => {
    expect(findCycles(edges.filter((e) => !e.typeOnly))).toEqual([]);
  });
});
