import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgentMachine } from '../../src/agent/index.ts';
import type { Message } from '../../src/bus/index.ts';
import { RunError } from '../../src/core/index.ts';
import { defineWorld, runWorld } from '../../src/world/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';
import { lines, verifyInProcess } from '../fork/helpers.ts';
import { cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const machine = defineAgentMachine({
  id: 'meet',
  regions: { item: { initial: 'ignorant', states: { ignorant: { on: { HEAR: 'knows' } }, knows: {} } } },
  memory: { got: { initial: -1, type: 'i32' }, heard: { initial: -1, type: 'i32' }, u: { initial: 0 } },
});

const params = z.object({
  executor: z.enum(['columnar', 'xstate']).default('columnar'),
  /** Random draws the responder makes. */
  draws: z.number().int().default(0),
  /** Withhold what agent 0 says from agent 3. */
  hide: z.boolean().default(false),
  /** What agent 0 does at tick 1: meet agent 3, meet itself, or meet inside an answer. */
  mode: z.enum(['named', 'self', 'nested']).default('named'),
});
type P = z.infer<typeof params>;

/** Six agents; at tick 1 agent 0 meets agent 3 and every agent draws one number. */
const meetWorld = defineWorld({
  id: 'meet',
  version: '1.0.0',
  description: 'encounter test world',
  params,
  defaultTicks: 2,
  create: ({ params: p }) => ({
    size: 6,
    agents: machine,
    executor: p.executor,
    turnPolicy: 'round-robin',
    visibility: (m: Message, to: number) => (p.hide && m.route === 'encounter' && to === 3 ? null : m),
    policy: (ctx) => {
      ctx.set('u', ctx.rng.next());
      if (ctx.agent !== 0 || ctx.tick !== 1) return;
      const partner = p.mode === 'self' ? 0 : 3;
      const answer = ctx.encounter(partner, 'ask', 'item', 7);
      ctx.set('got', answer ? Number(answer.payload) : -2);
    },
    respond: (ctx, said) => {
      if (ctx.params.mode === 'nested') ctx.encounter(5, 'ask');
      for (let k = 0; k < ctx.params.draws; k++) ctx.rng.next();
      ctx.set('heard', Number(said.payload));
      ctx.emit('HEAR');
      ctx.reply('answer', 'item', ctx.agent * 10);
    },
  }),
});

async function runMeet(p: Partial<P>, level: 'full' | 'minimal' = 'full') {
  let log: CaptureLog | undefined;
  const observed: [number, string][] = [];
  const r = await runWorld(meetWorld, {
    params: p,
    ticks: 7,
    level,
    openLog: (h) => {
      log = new CaptureLog(h);
      return log;
    },
    onStart: (view) => {
      for (let i = 0; i < 6; i++)
        view.bus.observe(i).subscribe((ms) => {
          for (const m of ms) observed.push([i, m.kind]);
        });
    },
  });
  return { r, log: log!, observed };
}

describe('encounters', () => {
  it('resolve inside the opener step: the answer comes back, only the two sides hear, the log records it', async () => {
    const { r, log, observed } = await runMeet({});
    expect(observed).toEqual([
      [3, 'ask'],
      [0, 'answer'],
    ]);
    const [e] = log.events('encounter');
    expect(e).toMatchObject({ from: 0, to: 3, kind: 'ask', payload: 7, heard: true, replyHeard: true, t: 1 });
    expect(e.reply).toMatchObject({ kind: 'answer', payload: 30 });
    expect(e.answer).toEqual({ events: ['HEAR'], memory: { heard: 7 }, sent: [] });
    expect(log.events('act')[0]).toMatchObject({ agent: 0, memory: { got: 30 }, sent: [0] });
    expect(r.deliveries).toBe(2);
  });

  it('withheld by the visibility rule, nothing reaches the responder and no answer comes back', async () => {
    const { log, observed } = await runMeet({ hide: true });
    expect(observed).toEqual([]);
    expect(log.events('encounter')[0]).toMatchObject({ heard: false, reply: null, answer: null });
    expect(log.events('act')[0]).toMatchObject({ agent: 0, memory: { got: -2 } });
  });

  it("the responder's draws come from its own stream: other agents' draws do not move", async () => {
    const u = async (draws: number) => {
      const { log } = await runMeet({ draws });
      return log.events('act').map((a) => (a.memory as { u: number }).u);
    };
    expect(await u(5)).toEqual(await u(0));
  });

  it('both executors give the same log and digest', async () => {
    const a = await runMeet({ executor: 'columnar' });
    const b = await runMeet({ executor: 'xstate' });
    const same = (l: CaptureLog) =>
      l
        .events()
        .map((e) =>
          e.type === 'snapshot' ? 'snapshot' : e.type === 'end' ? e.finalState : JSON.stringify(e),
        );
    expect(same(b.log)).toEqual(same(a.log));
    expect(a.r.metrics).toEqual(b.r.metrics);
  });

  it('an agent cannot meet itself, nor open an encounter while answering one', async () => {
    await expect(runMeet({ mode: 'self' })).rejects.toThrow(RunError);
    await expect(runMeet({ mode: 'nested' })).rejects.toThrow(/cannot open an encounter/);
  });
});

describe('encounters in recorded rumour runs', () => {
  const dir = tempDir('encounters');
  const base = ['rumor', '--set', 'n=400', '--set', 'model=maki-thompson', '--set', 'turns=async'];

  it('replay --verify, fork and resume reproduce a full log of instant Maki–Thompson', async () => {
    const parent = join(dir, 'mt.ndjson');
    const run = await cliJson(['run', ...base, '--log', 'full', '--snapshot-every', '3', '--out', parent]);
    const all = lines(parent);
    expect(all.some((l) => l.includes('"type":"encounter"'))).toBe(true);
    // cut the log after tick 7's line and resume it, while a fork at tick 4 runs beside it
    const cut = join(dir, 'mt-cut.ndjson');
    const end = all.findIndex((l) => l.includes('"type":"tick"') && l.includes('"t":7,'));
    writeFileSync(cut, `${all.slice(0, end + 1).join('\n')}\n`);
    const [verified, forked, resumed] = await Promise.all([
      verifyInProcess(parent),
      cliJson(['fork', parent, '--at', '4', '--out', join(dir, 'mt-fork.ndjson')]),
      cliJson(['resume', cut]),
    ]);
    expect(verified).toBe(run.digest);
    expect(forked.digest).toBe(run.digest);
    expect(resumed.digest).toBe(run.digest);
  }, 120_000);
});
