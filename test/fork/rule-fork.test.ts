// Forks of a rule-world run (the rumour world, 1,000 agents: 48 ticks, full log, snapshots
// every 15 ticks) through the CLI: no intervention reproduces the parent byte for byte from
// any tick; each kind of intervention keeps the shared past byte-identical, changes the
// future, and the child verifies.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cliJson,
  expectForkOf,
  type Line,
  lines,
  parsed,
  pool,
  tempDir,
  tickNumbers,
  verifyCli,
  verifyInProcess,
  wallOf,
  write,
} from './helpers.ts';

const dir = tempDir('fork-rule');
const parent = join(dir, 'parent.ndjson');
let parentRun: { digest: string; ticks: number };
let snapshotTicks: number[];

beforeAll(async () => {
  const r = await cliJson(
    'run',
    'rumor',
    '--set',
    'n=1000',
    '--seed',
    '3',
    '--snapshot-every',
    '15',
    '--log',
    'full',
    '--out',
    parent,
  );
  parentRun = r as unknown as typeof parentRun;
  const log = parsed(parent);
  // periodic snapshots only: the last one, before `end`, is the final state
  snapshotTicks = log.filter((l, k) => l.type === 'snapshot' && log[k + 1]?.type !== 'end').map((l) => l.t);
});

describe('a fork without intervention reproduces the parent exactly', () => {
  it('the parent is long enough to fork between snapshots and has several snapshots', () => {
    expect(parentRun.ticks).toBeGreaterThan(35);
    expect(snapshotTicks).toEqual([15, 30, 45].filter((t) => t <= parentRun.ticks));
    // a full log: several lines per agent (4,332 at 1,000 agents)
    expect(lines(parent).length).toBeGreaterThan(4000);
  });

  it('from tick 0, from every snapshot, between snapshots and from the last tick: same digest, same bytes', async () => {
    const ticks = [...new Set([0, ...snapshotTicks, 22, parentRun.ticks])];
    const results = await pool(
      ticks.map((t) => async () => {
        const out = join(dir, `same-${t}.ndjson`);
        const r = await cliJson('fork', parent, '--at', String(t), '--out', out);
        return { t, out, r };
      }),
    );
    for (const { t, out, r } of results) {
      expect({ t, digest: r.digest, ticks: r.ticks }).toEqual({
        t,
        digest: parentRun.digest,
        ticks: parentRun.ticks,
      });
      expectForkOf(parent, out, t, false);
      expect(lines(out).slice(1)).toEqual(lines(parent).slice(1));
      expect(wallOf(out).fork).toEqual({
        parent,
        parentDigest: parentRun.digest,
        atTick: t,
        interventions: 0,
      });
    }
  }, 90_000);
});

/** One intervention variant: its file (or flags), the fork tick, and the recorded interventions expected. */
interface Variant {
  name: string;
  at: () => number;
  args: (d: string) => string[];
  recorded: Record<string, unknown>[];
  cliVerify?: boolean;
}

const variants: Variant[] = [
  {
    name: 'YAML: a message from outside to everyone (list form)',
    at: () => 15,
    args: (d) => [
      '--intervene',
      write(d, 'message.yaml', '- type: message\n  to: all\n  kind: tell\n  item: rumor\n'),
    ],
    recorded: [{ type: 'message', from: -1, to: 'all', kind: 'tell', item: 'rumor' }],
    cliVerify: true,
  },
  {
    name: 'JSON: a world parameter change (one object)',
    at: () => 10,
    args: (d) => [
      '--intervene',
      write(
        d,
        'params.json',
        JSON.stringify({ type: 'params', set: { model: 'maki-thompson', factBlocksRumor: false } }),
      ),
    ],
    recorded: [{ type: 'params', set: { model: 'maki-thompson', factBlocksRumor: false } }],
    cliVerify: true,
  },
  {
    name: 'YAML: agent edits, statechart events and memory ({interventions: [...]} form)',
    at: () => 12,
    args: (d) => [
      '--intervene',
      write(
        d,
        'agents.yaml',
        `interventions:\n${Array.from({ length: 10 }, (_, i) => `  - type: agent\n    agent: ${i * 100}\n    events: [HEAR_RUMOR]\n    memory: { role: 2 }\n`).join('')}`,
      ),
    ],
    recorded: Array.from({ length: 10 }, (_, i) => ({
      type: 'agent',
      agent: i * 100,
      events: ['HEAR_RUMOR'],
      memory: { role: 2 },
      forget: [],
    })),
  },
  {
    name: 'JSON: network edits, add, remove and isolate (array form)',
    at: () => 15,
    args: (d) => [
      '--intervene',
      write(
        d,
        'network.json',
        JSON.stringify([
          {
            type: 'network',
            add: [
              [0, 500],
              [1, 833],
            ],
            remove: [
              [0, 1],
              [2, 3],
            ],
            isolate: Array.from({ length: 200 }, (_, i) => i * 5),
          },
        ]),
      ),
    ],
    recorded: [
      {
        type: 'network',
        add: [
          [0, 500],
          [1, 833],
        ],
        remove: [
          [0, 1],
          [2, 3],
        ],
        isolate: Array.from({ length: 200 }, (_, i) => i * 5),
      },
    ],
  },
  {
    name: 'reseed the future with --seed',
    at: () => 20,
    args: () => ['--seed', '99'],
    recorded: [{ type: 'reseed', seed: 99 }],
  },
  {
    name: 'at tick 0: a message to one agent',
    at: () => 0,
    args: (d) => [
      '--intervene',
      write(
        d,
        'zero.json',
        JSON.stringify({ type: 'message', to: { agent: 42 }, kind: 'tell', item: 'fact' }),
      ),
    ],
    recorded: [{ type: 'message', from: -1, to: { agent: 42 }, kind: 'tell', item: 'fact' }],
  },
  {
    name: 'at the last tick: a message to everyone brings the extinct run back to life',
    at: () => parentRun.ticks,
    args: (d) => ['--intervene', write(d, 'last.yaml', 'type: message\nto: all\nkind: tell\nitem: fact\n')],
    recorded: [{ type: 'message', from: -1, to: 'all', kind: 'tell', item: 'fact' }],
  },
];

describe('a fork with an intervention keeps the past and changes the future', () => {
  it.concurrent.each(variants)('$name', async (v) => {
    const d = tempDir('iv');
    const at = v.at();
    const out = join(d, 'child.ndjson');
    const r = await cliJson('fork', parent, '--at', String(at), ...v.args(d), '--out', out);
    expect(r.digest).not.toBe(parentRun.digest);
    expectForkOf(parent, out, at, true);
    const recorded = parsed(out)
      .filter((l) => l.type === 'intervene')
      .map((l) => (l as Line & { intervention: unknown }).intervention);
    expect(recorded).toEqual(v.recorded);
    expect(parsed(out).find((l) => l.type === 'intervene')?.t).toBe(at);
    expect((wallOf(out).fork as { interventions: number }).interventions).toBe(v.recorded.length);
    expect(v.cliVerify ? await verifyCli(out) : await verifyInProcess(out)).toBe(r.digest);
    if (at === parentRun.ticks) expect(Math.max(...tickNumbers(out))).toBeGreaterThan(parentRun.ticks);
  });
});

describe('a child is itself a run: forking it again reproduces it', () => {
  it('every intervention type at once (and --set), then forks of the child after the intervention, at its snapshots and between', async () => {
    const d = tempDir('grandchild');
    const all = write(
      d,
      'all.yaml',
      [
        'interventions:',
        '  - { type: message, to: all, kind: tell, item: rumor }',
        '  - { type: agent, agent: 7, events: [HEAR_FACT], memory: { role: 1 } }',
        '  - { type: network, add: [[5, 668]], remove: [[0, 1]], isolate: [9, 99, 999] }',
        '  - { type: params, set: { skeptics: 0.3, skepticism: 0.9 } }',
        '  - { type: reseed, seed: 12345 }',
      ].join('\n'),
    );
    const child = join(d, 'child.ndjson');
    const c = await cliJson(
      'fork',
      parent,
      '--at',
      '15',
      '--intervene',
      all,
      '--set',
      'model=maki-thompson',
      '--out',
      child,
    );
    expectForkOf(parent, child, 15, true);
    // file entries in order, then --set as a params intervention
    expect(
      parsed(child)
        .filter((l) => l.type === 'intervene')
        .map((l) => (l as Line & { intervention: { type: string } }).intervention.type),
    ).toEqual(['message', 'agent', 'network', 'params', 'reseed', 'params']);
    const childTicks = c.ticks as number;
    const forkTicks = [30, 33].filter((t) => t <= childTicks);
    const grand = await pool(
      forkTicks.map((t) => async () => {
        const out = join(d, `grand-${t}.ndjson`);
        return { t, out, r: await cliJson('fork', child, '--at', String(t), '--out', out) };
      }),
    );
    for (const g of grand) {
      expect({ t: g.t, digest: g.r.digest }).toEqual({ t: g.t, digest: c.digest });
      expectForkOf(child, g.out, g.t, false);
    }
  }, 90_000);
});
