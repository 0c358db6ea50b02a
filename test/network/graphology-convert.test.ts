import { UndirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import { ConfigError, SeededStream } from '../../src/core/index.ts';
import { complete, fromGraphology, toGraphology, wattsStrogatz } from '../../src/network/index.ts';

describe('toGraphology / fromGraphology', () => {
  it('round-trips a topology and its labels', () => {
    const t = wattsStrogatz({ n: 300, k: 6, beta: 0.3 }, new SeededStream('rt'));
    const labels = Array.from({ length: 300 }, (_, i) => `agent-${i}`);
    const graph = toGraphology(t, labels);
    expect(graph.order).toBe(300);
    expect(graph.size).toBe(t.edgeCount);
    expect(graph.type).toBe('undirected');
    const back = fromGraphology(graph);
    expect(back.labels).toEqual(labels);
    expect(back.topology.kind).toBe('graphology');
    expect(back.topology.offsets).toEqual(t.offsets);
    expect(back.topology.neighbours).toEqual(t.neighbours);
  });

  it('uses agent indices as keys by default and exports the same JSON every time', () => {
    const t = wattsStrogatz({ n: 50, k: 4, beta: 0.5 }, new SeededStream('keys'));
    const a = toGraphology(t);
    expect(a.nodes().slice(0, 3)).toEqual(['0', '1', '2']);
    expect(JSON.stringify(toGraphology(t).export())).toBe(JSON.stringify(a.export()));
  });

  it('materialises a complete topology', () => {
    const g = toGraphology(complete({ n: 6 }));
    expect(g.size).toBe(15);
    expect(g.hasEdge('0', '5')).toBe(true);
  });

  it('reads graphs built by hand, in node order', () => {
    const g = new UndirectedGraph();
    g.addNode('q');
    g.addNode('p');
    g.addEdge('p', 'q');
    const { topology, labels } = fromGraphology(g, 'mine');
    expect(labels).toEqual(['q', 'p']);
    expect(topology.kind).toBe('mine');
    expect(topology.hasEdge(0, 1)).toBe(true);
  });

  it('rejects labels of the wrong length or repeated', () => {
    const t = complete({ n: 3 });
    expect(() => toGraphology(t, ['a', 'b'])).toThrow(ConfigError);
    expect(() => toGraphology(t, ['a', 'b'])).toThrow(/2 labels for a topology of 3 agents/);
    expect(() => toGraphology(t, ['a', 'b', 'a'])).toThrow(/label "a" is used by two agents/);
  });
});
