// Forks of a rule-world run (the rumour world, 1,000 agents: 48 ticks, full log, snapshots
// every 15 ticks) through the CLI: no intervention reproduces the parent byte for byte from
// any tick; each kind of intervention keeps the shared past byte-identical, changes the
// future, and the child verifies. The commands run in this process (cliChecked, one after the
// other): every case is about what a command writes, none about the process itself.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliCheckedJson } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import {
  expectForkOf,
  type Line,
  lines,
  parsed,
  tickNumbers,
  verifyCliIn,
  verifyInProcess,
  wallOf,
  write,
} from './helpers.ts';

const dir = tempDir('fork-rule');
const parent = join(dir, 'parent.ndjson');
let parentRun: { digest: string; ticks: number };
let snapshotTicks: number[];
/**
 * Agents that no line up to tick 15 names (as sender, addressee or actor): still ignorant
 * there. An isolated agent that was already spreading would stay a spreader forever (no
 * neighbour to make it stop) and keep the child running to the 1,000-tick limit.
 */
let quiet: number[];

beforeAll(async () => {
  const r = await cliCheckedJson([
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
  ]);
  parentRun = r as unknown as typeof parentRun;
  const log = parsed(parent);
  // periodic snapshots only: the last one, before `end`, is the final state
  snapshotTicks = log.filter((l, k) => l.type === 'snapshot' && log[k + 1]?.type !== 'end').map((l) => l.t);
  const named = new Set<unknown>();
  for (const l of log) if (l.t <= 15) for (const k of ['from', 'to', 'agent']) named.add(l[k]);
  quiet = Array.from({ length: 1000 }, (_, a) => a).filter((a) => !named.has(a));
});

describe('a fork without intervention reproduces the parent exactly', () => {
  it('the parent is long enough to fork between snapshots and has several snapshots', () => {
    expect(parentRun.ticks).toBeGreaterThan(35);
    expect(snapshotTicks).toEqual([15, 30, 45].filter((t) => t <= parentRun.ticks));
    // a full log: several lines per agent (4,332 at 1,000 agents)
    expect(lines(parent).length).toBeGreaterThan(4000);
    // enough agents still ignorant at tick 15 for the network intervention to isolate 200
    expect(quiet.length).toBeGreaterThanOrEqual(200);
  });

  it('from tick 0, from every snapshot, between snapshots and from the last tick: same digest, same bytes', async () => {
    const ticks = [...new Set([0, ...snapshotTicks, 22, parentRun.ticks])];
    for (const t of ticks) {
      const out = join(dir, `same-${t}.ndjson`);
      const r = await cliCheckedJson(['fork', parent, '--at', String(t), '--out', out]);
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
  /** Read when the case runs (some variants name agents read from the parent). */
  recorded: () => Record<string, unknown>[];
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
    recorded: () => [{ type: 'message', from: -1, to: 'all', kind: 'tell', item: 'rumor' }],
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
    recorded: () => [{ type: 'params', set: { model: 'maki-thompson', factBlocksRumor: false } }],
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
    recorded: () =>
      Array.from({ length: 10 }, (_, i) => ({
        type: 'agent',
        agent: i * 100,
        events: ['HEAR_RUMOR'],
        memory: { role: 2 },
        forget: [],
      })),
  },
  {
    name: 'JSON: network edits, add, remove and isolate 200 agents still ignorant at the fork (array form)',
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
            isolate: quiet.slice(0, 200),
          },
        ]),
      ),
    ],
    recorded: () => [
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
        isolate: quiet.slice(0, 200),
      },
    ],
  },
  {
    name: 'reseed the future with --seed',
    at: () => 20,
    args: () => ['--seed', '99'],
    recorded: () => [{ type: 'reseed', seed: 99 }],
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
    recorded: () => [{ type: 'message', from: -1, to: { agent: 42 }, kind: 'tell', item: 'fact' }],
  },
  {
    name: 'at the last tick: a message to everyone brings the extinct run back to life',
    at: () => parentRun.ticks,
    args: (d) => ['--intervene', write(d, 'last.yaml', 'type: message\nto: all\nkind: tell\nitem: fact\n')],
    recorded: () => [{ type: 'message', from: -1, to: 'all', kind: 'tell', item: 'fact' }],
  },
];

describe('a fork with an intervention keeps the past and changes the future', () => {
  it.each(variants)('$name', async (v) => {
    const d = tempDir('iv');
    const at = v.at();
    const out = join(d, 'child.ndjson');
    const r = await cliCheckedJson(['fork', parent, '--at', String(at), ...v.args(d), '--out', out]);
    expect(r.digest).not.toBe(parentRun.digest);
    expectForkOf(parent, out, at, true);
    const recorded = parsed(out)
      .filter((l) => l.type === 'intervene')
      .map((l) => (l as Line & { intervention: unknown }).intervention);
    expect(recorded).toEqual(v.recorded());
    expect(parsed(out).find((l) => l.type === 'intervene')?.t).toBe(at);
    expect((wallOf(out).fork as { interventions: number }).interventions).toBe(v.recorded().length);
    expect(v.cliVerify ? await verifyCliIn(out) : await verifyInProcess(out)).toBe(r.digest);
    if (at === parentRun.ticks) expect(Math.max(...tickNumbers(out))).toBeGreaterThan(parentRun.ticks);
  });
});

describe('a child is itself a run: forking it again reproduces it', () => {
  it('every intervention type at once (and --set), then forks of the child after the intervention, at its snapshots and between', async () => {
    const d = tempDir('grandchild');
    // the message goes to one agent, not to all: the isolated agents (still ignorant at tick
    // 15) must not become spreaders that nobody can stop, or the child runs to its tick limit
    const isolated = quiet.filter((a) => ![0, 1, 5, 7, 42, 668].includes(a)).slice(0, 3);
    const all = write(
      d,
      'all.yaml',
      [
        'interventions:',
        '  - { type: message, to: { agent: 42 }, kind: tell, item: rumor }',
        '  - { type: agent, agent: 7, events: [HEAR_FACT], memory: { role: 1 } }',
        `  - { type: network, add: [[5, 668]], remove: [[0, 1]], isolate: [${isolated.join(', ')}] }`,
        '  - { type: params, set: { skeptics: 0.3, skepticism: 0.9 } }',
        '  - { type: reseed, seed: 12345 }',
      ].join('\n'),
    );
    const child = join(d, 'child.ndjson');
    const c = await cliCheckedJson([
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
    ]);
    expectForkOf(parent, child, 15, true);
    // file entries in order, then --set as a params intervention
    expect(
      parsed(child)
        .filter((l) => l.type === 'intervene')
        .map((l) => (l as Line & { intervention: { type: string } }).intervention.type),
    ).toEqual(['message', 'agent', 'network', 'params', 'reseed', 'params']);
    const childTicks = c.ticks as number;
    // the child ends normally (no agent left spreading in isolation) and after both fork ticks
    expect(c.reason).toBe('extinct');
    const forkTicks = [30, 33];
    expect(childTicks).toBeGreaterThanOrEqual(33);
    for (const t of forkTicks) {
      const out = join(d, `grand-${t}.ndjson`);
      const g = await cliCheckedJson(['fork', child, '--at', String(t), '--out', out]);
      expect({ t, digest: g.digest }).toEqual({ t, digest: c.digest });
      expectForkOf(child, out, t, false);
    }
  }, 90_000);
});
