import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirectedGraph, MultiUndirectedGraph, UndirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import { ConfigError, type GrapevineError } from '../../src/core/index.ts';
import { loadEdgeListCsv, loadGraphologyJson } from '../../src/network/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('network');

let fileNo = 0;
function file(content: string, ext = 'csv'): string {
  const path = join(dir, `net-${fileNo++}.${ext}`);
  writeFileSync(path, content);
  return path;
}

function thrown(fn: () => unknown): GrapevineError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as GrapevineError;
  }
  throw new Error('expected a throw');
}

function edgesOf(t: { size: number; forEachNeighbour(i: number, fn: (j: number) => void): void }) {
  const out: [number, number][] = [];
  for (let i = 0; i < t.size; i++) t.forEachNeighbour(i, (j) => void (j > i && out.push([i, j])));
  return out;
}

describe('loadEdgeListCsv', () => {
  it('reads a header, comments, blank lines and string labels in order of first appearance', () => {
    const path = file(
      [
        '# a small village',
        'source,target',
        '',
        'alice,bob',
        'bob,carol  ',
        '  # carol knows dave',
        'carol\tdave',
        'dave eve',
        'bob, alice',
        '"eve","alice",0.5',
      ].join('\n'),
    );
    const { topology, labels } = loadEdgeListCsv(path);
    expect(labels).toEqual(['alice', 'bob', 'carol', 'dave', 'eve']);
    expect(topology.kind).toBe('csv');
    expect(edgesOf(topology)).toEqual([
      [0, 1],
      [0, 4],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it('handles CRLF, a BOM, header names in any case, and self loops as isolated agents', () => {
    const path = file('\ufeffFrom,To\r\n1,2\r\n3,3\r\n2,1\r\n');
    const { topology, labels } = loadEdgeListCsv(path);
    expect(labels).toEqual(['1', '2', '3']);
    expect(topology.edgeCount).toBe(1);
    expect(topology.degree(2)).toBe(0);
  });

  it('keeps a first line that only looks like a header when told there is none', () => {
    const path = file('source,target\ntarget,other\n');
    expect(loadEdgeListCsv(path, { header: false }).labels).toEqual(['source', 'target', 'other']);
    expect(loadEdgeListCsv(path).labels).toEqual(['target', 'other']);
    expect(loadEdgeListCsv(file('a,b\nb,c\n'), { header: true }).labels).toEqual(['b', 'c']);
  });

  it('names the file and line of a bad line', () => {
    const path = file('a,b\n# fine\nlonely\n');
    const err = thrown(() => loadEdgeListCsv(path));
    expect(err.message).toBe(`${path}:3: expected two node labels, got "lonely"`);
    expect(err.hint).toMatch(/source,target/);
  });

  it('reads quoted labels holding separators or #, and comments after the fields (csv-parse)', () => {
    const path = file('"Smith, Ann","#2" # a comment\n"#2",bob\n');
    expect(loadEdgeListCsv(path).labels).toEqual(['Smith, Ann', '#2', 'bob']);
  });

  it('names the file and line of an unclosed quote', () => {
    const path = file('a,b\nb,c\nc,"d\n');
    expect(thrown(() => loadEdgeListCsv(path)).message).toMatch(new RegExp(`^${path}:3: .*[Qq]uote`));
  });

  it('rejects a missing file and a file without edges', () => {
    const missing = join(dir, 'nope.csv');
    expect(thrown(() => loadEdgeListCsv(missing)).message).toBe(
      `cannot read edge list ${missing}: no such file`,
    );
    expect(thrown(() => loadEdgeListCsv(file('# nothing\nsource,target\n'))).message).toMatch(/has no edges/);
  });
});

describe('loadGraphologyJson', () => {
  it('loads what graphology exports, in node order, ignoring attributes', () => {
    const g = new UndirectedGraph();
    for (const key of ['x', 'y', 'z', 'w']) g.addNode(key, { role: key });
    g.addEdge('z', 'x', { weight: 2 });
    g.addEdge('y', 'w');
    g.addEdge('x', 'y');
    const path = file(JSON.stringify(g.export()), 'json');
    const { topology, labels } = loadGraphologyJson(path);
    expect(labels).toEqual(['x', 'y', 'z', 'w']);
    expect(topology.kind).toBe('graphology-json');
    expect(edgesOf(topology)).toEqual([
      [0, 1],
      [0, 2],
      [1, 3],
    ]);
  });

  it('makes directed edges undirected and merges parallel edges', () => {
    const d = new DirectedGraph();
    d.mergeEdge('a', 'b');
    d.mergeEdge('b', 'a');
    d.mergeEdge('b', 'c');
    expect(edgesOf(loadGraphologyJson(file(JSON.stringify(d), 'json')).topology)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const m = new MultiUndirectedGraph();
    m.mergeNode('a');
    m.mergeNode('b');
    m.addEdge('a', 'b');
    m.addEdge('b', 'a');
    m.addEdge('a', 'a');
    const loaded = loadGraphologyJson(file(JSON.stringify(m.export()), 'json'));
    expect(loaded.topology.edgeCount).toBe(1);
  });

  it('accepts numeric keys and files without options or edges', () => {
    const path = file(JSON.stringify({ nodes: [{ key: 1 }, { key: 2 }, { key: 'three' }] }), 'json');
    const { topology, labels } = loadGraphologyJson(path);
    expect(labels).toEqual(['1', '2', 'three']);
    expect(topology.edgeCount).toBe(0);
  });

  it('reports bad files with the path and a hint', () => {
    const missing = join(dir, 'nope.json');
    expect(thrown(() => loadGraphologyJson(missing)).message).toMatch(
      /cannot read graphology JSON file .*: no such file/,
    );
    const bad = file('{"nodes": [', 'json');
    expect(thrown(() => loadGraphologyJson(bad)).message).toMatch(new RegExp(`^${bad}: not valid JSON`));
    expect(thrown(() => loadGraphologyJson(file('[1, 2]', 'json'))).message).toMatch(/"nodes" array/);
    expect(thrown(() => loadGraphologyJson(file('{"nodes": [{}]}', 'json'))).message).toMatch(
      /nodes\[0\] has no "key"/,
    );
    const unknown = file(
      JSON.stringify({ nodes: [{ key: 'a' }], edges: [{ source: 'a', target: 'b' }] }),
      'json',
    );
    const err = thrown(() => loadGraphologyJson(unknown));
    expect(err.message).toBe(`${unknown}: edges[0] has unknown target node "b"`);
    expect(err.hint).toMatch(/key of a node/);
    const dupKey = JSON.stringify({
      nodes: [{ key: 'a' }, { key: 'b' }],
      edges: [
        { key: 'e', source: 'a', target: 'b' },
        { key: 'e', source: 'b', target: 'a' },
      ],
    });
    expect(thrown(() => loadGraphologyJson(file(dupKey, 'json'))).message).toMatch(
      /graphology rejected the graph/,
    );
  });
});
