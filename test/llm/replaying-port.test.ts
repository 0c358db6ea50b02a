import { describe, expect, it } from 'vitest';
import { DivergenceError } from '../../src/core/index.ts';
import {
  attemptsOf,
  cachedOf,
  LlmCallError,
  type LlmCallRecord,
  RecordingPort,
  ReplayingPort,
  ReplayMismatchError,
} from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

async function record(
  script: ConstructorParameters<typeof ScriptedPort>[0],
  requests: ReturnType<typeof request>[],
) {
  const records: LlmCallRecord[] = [];
  let t = 0;
  const port = new RecordingPort(new ScriptedPort(script), (r) => records.push(r), { now: () => (t += 5) });
  for (const req of requests) await port.complete(req).catch(() => undefined);
  return records;
}

const alice1 = request({ caller: 'alice', tick: 1 });
const bob1 = request({ caller: 'bob', tick: 1, messages: [{ role: 'user', content: 'Bob here.' }] });
const alice2 = request({ caller: 'alice', tick: 2, messages: [{ role: 'user', content: 'Tick two.' }] });

describe('RecordingPort', () => {
  it('records params, messages, prompt hash, reply, attempts and latency under wall', async () => {
    const records = await record(
      [{ text: 'hi', attempts: [{ error: 'http-429', backoffMs: 100 }] }],
      [alice1],
    );
    expect(records).toEqual([
      {
        caller: 'alice',
        tick: 1,
        purpose: 'decide',
        params: alice1.params,
        messages: alice1.messages,
        promptHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        reply: { text: 'hi', usage: { input: 10, output: 5 }, model: 'test-model' },
        attempts: [],
        cached: false,
        wall: { latencyMs: 5, attempts: [{ error: 'http-429', backoffMs: 100 }] },
      },
    ]);
  });

  it('keeps failed attempts out of the digest, except when replaying a log that hashed them', async () => {
    const [live] = await record([{ text: 'hi', attempts: [{ error: 'timeout', backoffMs: 7 }] }], [alice1]);
    expect(live.attempts).toEqual([]);
    expect(attemptsOf(live)).toEqual([{ error: 'timeout', backoffMs: 7 }]);
    // a replay of the new record writes it the same way
    const again: LlmCallRecord[] = [];
    await new RecordingPort(new ReplayingPort([live]), (r) => again.push(r)).complete(alice1);
    expect(again[0].attempts).toEqual([]);
    expect(again[0].wall.attempts).toEqual([{ error: 'timeout', backoffMs: 7 }]);
    // an old record with its attempts inside the digest is written back inside it
    const old = { ...live, attempts: [{ error: 'timeout', backoffMs: 7 }], wall: { latencyMs: 3 } };
    const back: LlmCallRecord[] = [];
    await new RecordingPort(new ReplayingPort([old]), (r) => back.push(r)).complete(alice1);
    expect(back[0].attempts).toEqual([{ error: 'timeout', backoffMs: 7 }]);
    expect(back[0].wall.attempts).toBeUndefined();
    expect(attemptsOf(back[0])).toEqual([{ error: 'timeout', backoffMs: 7 }]);
  });

  it('marks a cache hit under wall, outside the digest, except when replaying a log that hashed it', async () => {
    const [miss, hit] = await record([{ text: 'hi' }, { text: 'hi', cached: true }], [alice1, alice2]);
    expect(miss.cached).toBe(false);
    expect(miss.wall.cached).toBeUndefined();
    // the hit's hashed fields are those of the same call answered by the model
    expect(hit.cached).toBe(false);
    expect(hit.wall.cached).toBe(true);
    expect([cachedOf(miss), cachedOf(hit)]).toEqual([false, true]);
    // a replay of the new record writes it the same way
    const again: LlmCallRecord[] = [];
    await new RecordingPort(new ReplayingPort([hit]), (r) => again.push(r)).complete(alice2);
    expect(again[0]).toMatchObject({ cached: false, wall: { cached: true } });
    // an old record with `cached: true` inside the digest is written back inside it
    const old = { ...hit, cached: true, wall: { latencyMs: 3 } };
    const back: LlmCallRecord[] = [];
    await new RecordingPort(new ReplayingPort([old]), (r) => back.push(r)).complete(alice2);
    expect(back[0].cached).toBe(true);
    expect(back[0].wall.cached).toBeUndefined();
    expect(cachedOf(back[0])).toBe(true);
  });

  it('records a call that failed for good, then rethrows it', async () => {
    const err = new LlmCallError('http-5xx', 'LLM call failed (http-5xx, status 500): boom', {
      status: 500,
      attempts: [{ error: 'http-500', backoffMs: 0 }],
    });
    const records = await record([err], [alice1]);
    expect(records[0]).toMatchObject({
      reply: null,
      error: { kind: 'http-5xx', status: 500, message: err.message },
      attempts: [],
      wall: { attempts: [{ error: 'http-500', backoffMs: 0 }] },
    });
  });
});

describe('ReplayingPort', () => {
  it('serves recorded replies per caller, whatever the order callers ask in', async () => {
    const records = await record(['r-alice-1', 'r-bob-1', 'r-alice-2'], [alice1, bob1, alice2]);
    const replay = new ReplayingPort(records);
    expect((await replay.complete(bob1)).text).toBe('r-bob-1');
    expect((await replay.complete(alice1)).text).toBe('r-alice-1');
    expect((await replay.complete(alice2)).text).toBe('r-alice-2');
    expect(replay.unused()).toEqual([]);
  });

  it('replays a recorded failure as the same error', async () => {
    const records = await record([new LlmCallError('timeout', 'LLM call failed (timeout): slow')], [alice1]);
    await expect(new ReplayingPort(records).complete(alice1)).rejects.toMatchObject({
      kind: 'timeout',
      message: 'LLM call failed (timeout): slow',
    });
  });

  it('names the caller, tick and first differing message with excerpts', async () => {
    const records = await record(['ok'], [alice1]);
    const changed = request({
      messages: [
        alice1.messages[0],
        { role: 'user', content: 'Bob says the mill burned UP. What do you do?' },
      ],
    });
    const err = await new ReplayingPort(records).complete(changed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplayMismatchError);
    expect(err).toBeInstanceOf(DivergenceError);
    const e = err as ReplayMismatchError;
    expect(e).toMatchObject({
      code: 'E_DIVERGED',
      exitCode: 1,
      caller: 'alice',
      messageIndex: 1,
      position: { tick: 1 },
    });
    expect(e.message).toBe(
      'replay diverged: caller "alice" at tick 1 (decide): message 1 (user) differs at character 25: ' +
        'expected "Bob says the mill burned down. What do you do?", got "Bob says the mill burned UP. What do you do?"',
    );
  });

  it('clips the excerpts of long messages around the first difference', async () => {
    const long = (word: string) => `${'a'.repeat(100)} ${word} ${'z'.repeat(100)}`;
    const records = await record(
      ['ok'],
      [request({ messages: [{ role: 'user', content: long('rumour') }] })],
    );
    const err = await new ReplayingPort(records)
      .complete(request({ messages: [{ role: 'user', content: long('report') }] }))
      .catch((e: unknown) => e);
    expect((err as Error).message).toContain(
      `message 0 (user) differs at character 102: expected ..."${'a'.repeat(28)} rumour ${'z'.repeat(24)}"..., ` +
        `got ..."${'a'.repeat(28)} report ${'z'.repeat(24)}"...`,
    );
  });

  it('reports differing params, roles, message counts and ticks', async () => {
    const records = await record(['ok'], [alice1]);
    const mismatch = async (req: ReturnType<typeof request>) =>
      ((await new ReplayingPort(records).complete(req).catch((e: unknown) => e)) as Error).message;
    expect(await mismatch(request({ params: { ...alice1.params, temperature: 0.7 } }))).toContain(
      'params.temperature differs: expected 0, got 0.7',
    );
    expect(
      await mismatch(request({ messages: [{ ...alice1.messages[0], role: 'user' }, alice1.messages[1]] })),
    ).toContain('message 0 has role user, the recording has system');
    expect(await mismatch(request({ messages: [alice1.messages[0]] }))).toContain(
      'message 1 (user) is missing: recorded 2 messages, got 1',
    );
    expect(await mismatch(request({ tick: 2 }))).toContain('the recorded call was made at tick 1');
  });

  it('fails, naming caller and tick, when a caller has no recording left', async () => {
    const records = await record(['ok'], [alice1]);
    const replay = new ReplayingPort(records);
    await replay.complete(alice1);
    await expect(replay.complete(alice2)).rejects.toThrow(
      'replay diverged: caller "alice" at tick 2 (decide) made an LLM call, but the recording has no more calls for it (1 recorded, all served)',
    );
    await expect(replay.complete(request({ caller: 'carol', tick: 3 }))).rejects.toThrow(
      /caller "carol" at tick 3/,
    );
  });
});
