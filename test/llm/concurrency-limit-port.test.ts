import { describe, expect, it } from 'vitest';
import { ConcurrencyLimitPort, type LlmReply } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

describe('ConcurrencyLimitPort', () => {
  it('never runs more than N calls at once and starts them in arrival order', async () => {
    let running = 0;
    let peak = 0;
    const started: string[] = [];
    const inner = new ScriptedPort([
      async (req) => {
        running++;
        peak = Math.max(peak, running);
        started.push(req.caller);
        // Finish in an order unrelated to arrival: later callers are faster.
        const delay = 1 + ((7 * Number(req.caller.slice(1))) % 5);
        for (let i = 0; i < delay; i++) await Promise.resolve();
        running--;
        return {
          text: req.caller,
          usage: { input: 1, output: 1 },
          model: 'm',
          attempts: [],
        } satisfies LlmReply;
      },
    ]);
    const port = new ConcurrencyLimitPort(inner, 3);
    const callers = Array.from({ length: 20 }, (_, i) => `a${i}`);
    const replies = await Promise.all(callers.map((caller) => port.complete(request({ caller }))));
    expect(replies.map((r) => r.text)).toEqual(callers);
    expect(peak).toBe(3);
    expect(port.stats()).toEqual({ inFlight: 0, queued: 0, peakInFlight: 3 });
    expect(started).toEqual(callers);
  });

  it('frees the slot when a call fails', async () => {
    const port = new ConcurrencyLimitPort(new ScriptedPort([new Error('boom'), 'ok']), 1);
    const results = await Promise.allSettled([port.complete(request()), port.complete(request())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(port.stats().inFlight).toBe(0);
  });

  it('defaults to 16 and rejects a bad limit', () => {
    expect(new ConcurrencyLimitPort(new ScriptedPort(['x'])).maxInFlight).toBe(16);
    expect(() => new ConcurrencyLimitPort(new ScriptedPort(['x']), 0)).toThrow(RangeError);
  });
});
