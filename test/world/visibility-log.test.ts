import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgentMachine } from '../../src/agent/index.ts';
import type { NamedVisibilityRule } from '../../src/bus/index.ts';
import { ringLattice } from '../../src/network/index.ts';
import { defineWorld, type Intervention, runWorld } from '../../src/world/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';

const machine = defineAgentMachine({
  id: 'talk',
  regions: { main: { initial: 'busy', states: { busy: { tags: ['active'] } } } },
  memory: { n: { initial: 0 } },
});

// Agent 0 writes to agent 2 (not its neighbour on the ring at first) and to everyone;
// two named rules: a direct message needs an edge of the CURRENT network, and agent 1
// never hears a broadcast.
const rules: NamedVisibilityRule[] = [
  {
    name: 'direct-needs-edge',
    rule: (m, to, { network }) => (m.route === 'direct' && !network?.hasEdge(m.from, to) ? null : m),
  },
  { name: 'no-broadcast-to-1', rule: (m, to) => (m.route === 'broadcast' && to === 1 ? null : m) },
];

const talkWorld = defineWorld({
  id: 'talk',
  version: '1.0.0',
  description: 'visibility log test world',
  params: z.object({ size: z.number().int().default(6) }),
  defaultTicks: 4,
  create: ({ params: p }) => ({
    size: p.size,
    agents: machine,
    executor: 'columnar',
    network: ringLattice({ n: p.size, k: 2 }),
    turnPolicy: 'simultaneous',
    visibility: rules,
    policy: (ctx) => {
      if (ctx.agent !== 0 || ctx.tick > 2) return;
      ctx.send({ to: 'agent', id: 2 }, 'note', undefined, ctx.tick);
      ctx.send({ to: 'all' }, 'news', undefined, ctx.tick);
    },
  }),
});

async function talk(opts: { size?: number; level?: 'full' | 'minimal'; addressees?: boolean } = {}) {
  let log: CaptureLog | undefined;
  // the edge 0-2 appears after tick 2: the note sent at tick 1 (heard at 2) is withheld, the one sent at 2 is not
  const interventions: Intervention[] = [{ type: 'network', add: [[0, 2]], remove: [], isolate: [] }];
  await runWorld(talkWorld, {
    params: { size: opts.size ?? 6 },
    level: opts.level ?? 'full',
    addressees: opts.addressees,
    interventionsAt: (t) => (t === 2 ? interventions : []),
    openLog: (h) => {
      log = new CaptureLog(h);
      return log;
    },
  });
  return log!;
}

describe('visibility rules and full logs', () => {
  it('a rule sees the current network: a direct message needs the edge only until an intervention adds it', async () => {
    const log = await talk();
    const notes = log.events('send').filter((e) => e.kind === 'note');
    expect(notes.map((e) => [e.t, e.to])).toEqual([
      [1, [2]],
      [2, [2]],
    ]);
    const withheld = log.events('withheld');
    expect(withheld).toContainEqual(
      expect.objectContaining({ t: 2, id: notes[0].id, rule: 'direct-needs-edge', to: [2] }),
    );
    expect(withheld.some((e) => e.id === notes[1].id)).toBe(false);
    const heardBy2 = log
      .events('observe')
      .filter((e) => e.agent === 2)
      .flatMap((e) => e.msgs as number[]);
    expect(heardBy2).toContain(notes[1].id);
    expect(heardBy2).not.toContain(notes[0].id);
  });

  it('records each send’s addressees and names the rule of every withheld delivery', async () => {
    const log = await talk();
    const news = log.events('send').filter((e) => e.kind === 'news');
    expect(news[0]).toMatchObject({ recipients: 5, to: [1, 2, 3, 4, 5] });
    for (const n of news)
      expect(log.events('withheld').filter((e) => e.id === n.id)).toEqual([
        expect.objectContaining({ rule: 'no-broadcast-to-1', to: [1] }),
      ]);
    expect(JSON.parse(log.lines[0]).addressees).toBe(true);
  });

  it('splits a send to more addressees than one line holds over send-to lines', async () => {
    const log = await talk({ size: 2503 });
    const news = log.events('send').find((e) => e.kind === 'news')!;
    expect(news.recipients).toBe(2502);
    expect((news.to as number[]).length).toBe(1000);
    const more = log.events('send-to').filter((e) => e.id === news.id);
    expect(more.map((e) => (e.to as number[]).length)).toEqual([1000, 502]);
    const all = [...(news.to as number[]), ...more.flatMap((e) => e.to as number[])];
    expect(all).toEqual(Array.from({ length: 2502 }, (_, k) => k + 1));
  });

  it('minimal logs and full logs of earlier versions (no addressees) keep their lines', async () => {
    for (const log of [await talk({ level: 'minimal' }), await talk({ addressees: false })]) {
      expect(JSON.parse(log.lines[0]).addressees).toBeUndefined();
      expect(log.events('withheld')).toEqual([]);
      expect(log.events('send-to')).toEqual([]);
      for (const s of log.events('send')) expect(s.to).toBeUndefined();
    }
  });
});
