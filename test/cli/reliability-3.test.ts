// Issue 15, remaining cases: generator parameters a network ignores are refused,
// and the error paths found by walking every command end cleanly.
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RngStreams } from '../../src/core/index.ts';
import type { Topology } from '../../src/network/index.ts';
import { LogWriter } from '../../src/replay/index.ts';
import {
  checkNetworkParamsApplied,
  describeParams,
  NETWORK_READS,
  resolveParams,
  runWorld,
  type WorldDefinition,
} from '../../src/world/index.ts';
import { BUILTIN_CONTRIBUTIONS } from '../../worlds/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { startView } from '../viewer/browser.ts';

const dir = tempDir();

/** One line of error and one hint, no stack trace. */
function expectOneLine(stderr: string): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^grapevine: /);
  expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true);
  expect(stderr).not.toMatch(/\n\s+at /);
}

// Deliveries in flight that cannot fit: see test/cli/reliability-4.test.ts (checked as they
// grow, against the one memory budget of src/core/memory-budget.ts).

/** Two values of each generator parameter (both valid for every network that reads it). */
const TWO_VALUES: Record<string, [number, number]> = {
  k: [4, 6],
  beta: [0.05, 0.6],
  m: [2, 3],
  blocks: [2, 3],
  pIn: [0.2, 0.5],
  pOut: [0.05, 0.2],
};

/** Parameters a network needs besides the one under test (the block model has no defaults). */
const NEEDS: Record<string, Record<string, number>> = {
  'stochastic-block-model': { blocks: 2, pIn: 0.3, pOut: 0.05 },
};

/** Every edge of a topology, as text (to compare two builds). */
function edges(t: Topology): string {
  const out: string[] = [];
  for (let i = 0; i < t.size; i++) t.forEachNeighbour(i, (j) => out.push(`${i}-${j}`));
  return out.join(' ');
}

/** The network a rule world builds from these parameters (seed 1). */
function built(def: WorldDefinition, params: Record<string, unknown>): string {
  const w = def.create({ params: resolveParams(def, params), seed: 1, rng: new RngStreams(1) }) as {
    network?: Topology;
  };
  return edges(w.network as Topology);
}

const allWorlds = await Promise.all(
  BUILTIN_CONTRIBUTIONS.flatMap((c) => Object.values(c.worlds ?? {})).map((load) => load()),
);
const networkWorlds = allWorlds.filter((w) => w.networkParams);
const cases = networkWorlds.flatMap((def) => {
  const networks =
    describeParams(def)
      .find((p) => p.name === 'network')
      ?.type.split('|') ?? [];
  return networks
    .filter((network) => network !== 'csv')
    .flatMap((network) => (def.networkParams ?? []).map((param) => ({ def, network, param })));
});

describe('generator parameters a network ignores are refused (issue 15, every accepted input is applied)', () => {
  it('covers every world with a network and every (network, parameter) pair', () => {
    expect(networkWorlds.map((w) => w.id).sort()).toEqual([
      'epidemic',
      'opinion',
      'rumor',
      'survey',
      'town-square',
    ]);
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [c.def.id, c.network, c.param, c] as const))(
    '%s network=%s %s: applied, or refused naming both',
    (_id, network, param, { def }) => {
      const reads = NETWORK_READS[network as keyof typeof NETWORK_READS].includes(param);
      const given = (v: number) => ({
        ...('n' in def.params.shape ? { n: 40 } : {}),
        ...NEEDS[network],
        network,
        [param]: v,
      });
      const check = () =>
        checkNetworkParamsApplied(
          def,
          given(TWO_VALUES[param][0]),
          resolveParams(def, given(TWO_VALUES[param][0])),
        );
      if (reads) expect(check).not.toThrow();
      else
        expect(check).toThrow(
          new RegExp(`parameter "${param}" of world "${def.id}" is ignored by network=${network}`),
        );
      // the table is the generators' truth: a read parameter changes the network, an ignored one does not
      if (def.needsLlm) return;
      const [a, b] = TWO_VALUES[param].map((v) => built(def, given(v)));
      if (reads) expect(a).not.toBe(b);
      else expect(a).toBe(b);
    },
  );

  it("a parameter left at its default is never refused, and epidemic's beta (its transmission rate) is not a generator parameter", () => {
    for (const def of networkWorlds)
      expect(() =>
        checkNetworkParamsApplied(def, { network: 'complete' }, resolveParams(def, { network: 'complete' })),
      ).not.toThrow();
    const epidemic = networkWorlds.find((w) => w.id === 'epidemic') as WorldDefinition;
    const p = { network: 'complete', beta: 0.9 };
    expect(() => checkNetworkParamsApplied(epidemic, p, resolveParams(epidemic, p))).not.toThrow();
  });
});

describe('run and sweep refuse an ignored generator parameter before anything is written', () => {
  it('run: --set beta with network=erdos-renyi', async () => {
    const out = join(dir, 'er-beta.ndjson');
    const r = await cli(
      ['run', 'rumor', '--set', 'n=50', '--set', 'network=erdos-renyi', '--set', 'beta=0.3', '--out', out],
      { timeoutMs: 60_000 },
    );
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /parameter "beta" of world "rumor" is ignored by network=erdos-renyi \(it reads k\)/,
    );
    expect(r.stderr).toMatch(/hint: remove beta, or choose a network that reads it: watts-strogatz/);
    expectOneLine(r.stderr);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep: a grid value of network under which a --set parameter is ignored', async () => {
    const out = join(dir, 'sweep-m');
    const r = await cli(
      [
        ...['sweep', 'rumor', '--set', 'n=50', '--set', 'm=3', '--grid', 'network=barabasi-albert,complete'],
        ...['--ticks', '2', '--out', out, '--quiet'],
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /sweep point .*"network":"complete".*: parameter "m" of world "rumor" is ignored by network=complete/,
    );
    expectOneLine(r.stderr);
    expect(existsSync(join(out, 'runs'))).toBe(false);
  });
});

describe('sensitivity refuses a factor the network ignores', () => {
  it('epidemic --factor k on its default complete network: exit 2 before any run', async () => {
    const r = await cli(
      ['sensitivity', 'epidemic', '--factor', 'k=4,6', '--replicates', '1', '--ticks', '2'],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /--factor \{"k":"4"\}: parameter "k" of world "epidemic" is ignored by network=complete/,
    );
    expectOneLine(r.stderr);
  });
});

describe('view: a port in use and a malformed request path (issue 15, the rest of the class)', () => {
  it('refuses a busy port with exit 2, and answers a bad %-escape with 400 without stopping', async () => {
    const rumor = allWorlds.find((w) => w.id === 'rumor') as WorldDefinition;
    const log = join(dir, 'view.ndjson');
    await runWorld(rumor, {
      params: { n: 20 },
      seed: 1,
      ticks: 2,
      source: { kind: 'builtin' },
      openLog: (header) => LogWriter.create(log, header),
    });
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await cli(['view', log, '--port', String(port)], { timeoutMs: 60_000 });
      expect(r.hung).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`the viewer cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`),
      );
      expectOneLine(r.stderr);
    } finally {
      busy.close();
    }
    const view = await startView(log);
    try {
      expect((await fetch(`${view.url}%E0%A4%A`)).status).toBe(400);
      expect((await fetch(`${view.url}api/model`)).status).toBe(200);
    } finally {
      view.child.kill('SIGTERM');
      await view.done.catch(() => undefined);
    }
  });
});
