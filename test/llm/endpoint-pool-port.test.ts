import { describe, expect, it } from 'vitest';
import { EndpointPoolPort, LlmCallError, type LlmReply } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

const refused = () => new LlmCallError('connection', 'LLM call failed (connection): ECONNREFUSED');

/** A step that answers only when `open` is called: the call stays under way until then. */
function held(): { step: () => Promise<LlmReply>; open: () => void } {
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  return {
    step: async () => {
      await gate;
      return { text: 'late', usage: { input: 1, output: 1 }, model: 'm', attempts: [] };
    },
    open: () => open(),
  };
}

describe('EndpointPoolPort', () => {
  it('sends each call to the endpoint with the fewest calls under way (ties: the first listed)', async () => {
    const h = held();
    const a = new ScriptedPort([h.step, 'a']);
    const b = new ScriptedPort(['b']);
    const pool = new EndpointPoolPort([
      { name: 'a', port: a },
      { name: 'b', port: b },
    ]);
    const first = pool.complete(request());
    const second = await pool.complete(request());
    expect(second.text).toBe('b');
    expect(pool.stats().map((s) => s.outstanding)).toEqual([1, 0]);
    const third = await pool.complete(request()); // a is still busy: b again
    expect(third.text).toBe('b');
    h.open();
    expect((await first).text).toBe('late');
    expect((await pool.complete(request())).text).toBe('a'); // both idle: the first listed
    expect(pool.stats().map((s) => s.served)).toEqual([2, 2]);
  });

  it('moves a call on from a refusing endpoint without a trace in the reply, and takes that endpoint out', async () => {
    const dead = new ScriptedPort([refused()]);
    const live = new ScriptedPort(['ok']);
    const pool = new EndpointPoolPort(
      [
        { name: 'dead', port: dead },
        { name: 'live', port: live },
      ],
      { sitOutCalls: 3 },
    );
    const reply = await pool.complete(request());
    expect(reply.text).toBe('ok');
    expect(reply.attempts).toEqual([]);
    expect(pool.stats()[0]).toMatchObject({ failures: 1, out: true });
    // calls 2 and 3 go to the live one first (it answers, so the dead one is not tried)
    await pool.complete(request());
    await pool.complete(request());
    expect(dead.requests).toHaveLength(1);
    // call 4: the dead one is back in the rotation and probed first (tie, listed first); it fails again
    await pool.complete(request());
    expect(dead.requests).toHaveLength(2);
    // a second failure doubles the sit-out: 6 calls
    for (let k = 0; k < 5; k++) await pool.complete(request());
    expect(dead.requests).toHaveLength(2);
    await pool.complete(request());
    expect(dead.requests).toHaveLength(3);
    expect(live.requests).toHaveLength(10);
  });

  it('throws the last failure when every endpoint failed, and a request error at once', async () => {
    const pool = new EndpointPoolPort([
      { name: 'a', port: new ScriptedPort([refused()]) },
      { name: 'b', port: new ScriptedPort([new LlmCallError('http-5xx', 'LLM call failed (http-5xx)')]) },
    ]);
    await expect(pool.complete(request())).rejects.toMatchObject({ kind: 'http-5xx' });
    const bad = new ScriptedPort([new LlmCallError('http-4xx', 'LLM call failed (http-4xx)')]);
    const other = new ScriptedPort(['never']);
    const strict = new EndpointPoolPort([
      { name: 'a', port: bad },
      { name: 'b', port: other },
    ]);
    await expect(strict.complete(request())).rejects.toMatchObject({ kind: 'http-4xx' });
    expect(other.requests).toHaveLength(0);
  });
});
