import { describe, expect, it } from 'vitest';
import { estimateTokens, RateLimitPort } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

/** A virtual clock: sleeping advances it. */
function virtualTime() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    get t() {
      return t;
    },
  };
}

describe('RateLimitPort', () => {
  it('spaces requests to the requests-per-minute limit after the initial burst', async () => {
    const clock = virtualTime();
    const starts: number[] = [];
    const inner = new ScriptedPort([
      async (req) => {
        starts.push(clock.now());
        return { text: req.caller, usage: { input: 1, output: 1 }, model: 'm', attempts: [] };
      },
    ]);
    const port = new RateLimitPort(inner, { requestsPerMinute: 60, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 63; i++) await port.complete(request());
    // 60 at once (a full bucket), then one per second.
    expect(starts.slice(0, 60).every((t) => t === 0)).toBe(true);
    expect(starts.slice(60)).toEqual([1000, 2000, 3000]);
  });

  it('charges estimated tokens up front and corrects them with the real usage', async () => {
    const clock = virtualTime();
    const inner = new ScriptedPort([{ usage: { input: 500, output: 500 } }]);
    const port = new RateLimitPort(inner, {
      tokensPerMinute: 1000,
      now: clock.now,
      sleep: clock.sleep,
      estimate: () => 100,
    });
    await port.complete(request());
    expect(clock.t).toBe(0);
    // Real usage was 1000: the bucket is empty, so the next call (100 tokens) waits 6 s.
    await port.complete(request());
    expect(clock.t).toBe(6000);
    expect(port.waitedTotalMs).toBe(6000);
  });

  it('admits callers in FIFO order under concurrency', async () => {
    const clock = virtualTime();
    const order: string[] = [];
    const inner = new ScriptedPort([
      async (req) => {
        order.push(req.caller);
        return { text: '', usage: { input: 0, output: 0 }, model: 'm', attempts: [] };
      },
    ]);
    const port = new RateLimitPort(inner, { requestsPerMinute: 2, now: clock.now, sleep: clock.sleep });
    const callers = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(callers.map((caller) => port.complete(request({ caller }))));
    expect(order).toEqual(callers);
  });

  it('estimates tokens from message length plus the reply budget', () => {
    const req = request({ params: { model: 'm', maxTokens: 100 } });
    const chars = req.messages.reduce((n, m) => n + m.content.length + 16, 0);
    expect(estimateTokens(req)).toBe(Math.ceil(chars / 4) + 100);
  });
});
