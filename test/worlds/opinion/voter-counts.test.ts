// The voter's counted metrics and rates (worlds/opinion/voter-tally.ts) against a scan of the
// opinions at the same moment, every tick, through interventions that write opinions behind
// the policy's back and an edit of the network; and the errors for inputs the counts refuse.
import { describe, expect, it } from 'vitest';
import { ConfigError, runWorld, type WorldDefinition } from '../../../src/index.ts';
import type { Intervention } from '../../../src/world/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { checked } from '../../support/voter-checked.ts';

const opinion = world as unknown as WorldDefinition;

const at10: Intervention[] = Array.from({ length: 20 }, (_, i) => ({
  type: 'agent',
  agent: 3 * i,
  events: [],
  memory: { x: i % 2 },
  forget: [],
}));
const at20: Intervention[] = [{ type: 'network', add: [[0, 50]], remove: [[1, 2]], isolate: [7] }];

describe('voter by discordance: counted metrics and rates', () => {
  for (const executor of ['columnar', 'xstate'])
    it(`equal a scan at every tick, through interventions and a network edit (${executor})`, async () => {
      const problems: string[] = [];
      const r = await runWorld(checked(problems), {
        params: { model: 'voter', n: 120, k: 6, share: 0.5, executor },
        seed: 5,
        ticks: 40,
        interventionsAt: (t) => (t === 10 ? at10 : t === 20 ? at20 : []),
      });
      expect(problems).toEqual([]);
      expect(r.ticks).toBeGreaterThan(20);
    });

  it('on the complete graph (rate-1 wakes, counted metrics) equal a scan too', async () => {
    const problems: string[] = [];
    await runWorld(checked(problems), {
      params: { model: 'voter', n: 60, network: 'complete', share: 0.4 },
      seed: 2,
      ticks: 30,
      interventionsAt: (t) => (t === 10 ? at10.slice(0, 5) : []),
    });
    expect(problems).toEqual([]);
  });

  it('refuses an opinion other than 0 or 1, and a message, with one clear error', async () => {
    const run = (iv: Intervention) =>
      runWorld(opinion, {
        params: { model: 'voter', n: 50, k: 4 },
        seed: 1,
        ticks: 20,
        interventionsAt: (t) => (t === 3 ? [iv] : []),
      });
    const half: Intervention = { type: 'agent', agent: 4, events: [], memory: { x: 0.5 }, forget: [] };
    // the engine names the intervention that set it
    await expect(run(half)).rejects.toThrow(ConfigError);
    await expect(run(half)).rejects.toThrow('voter agent 4 holds opinion 0.5');
    const mail: Intervention = { type: 'message', from: -1, to: { agent: 4 }, kind: 'news' } as Intervention;
    await expect(run(mail)).rejects.toThrow('voter agent 4 received a message');
  });

  it('activation=uniform with the discordance rule says which rule to name', async () => {
    await expect(
      runWorld(opinion, { params: { model: 'voter', n: 20, activation: 'uniform' }, seed: 1, ticks: 5 }),
    ).rejects.toThrow('voterRule=discordance needs activation=by-state');
  });
});
