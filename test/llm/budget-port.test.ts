import { describe, expect, it } from 'vitest';
import { BudgetExceededError, BudgetPort, LlmCallError, priceOf } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

describe('BudgetPort', () => {
  it('stops before the call once the token budget is reached', async () => {
    const inner = new ScriptedPort([{ usage: { input: 600, output: 400 } }]);
    const port = new BudgetPort(inner, { maxTokens: 1500 });
    await port.complete(request());
    await port.complete(request()); // 1000 < 1500: allowed, overshoots to 2000
    const err = await port.complete(request({ caller: 'bob', tick: 7 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ code: 'E_BUDGET', exitCode: 1 });
    expect((err as Error).message).toContain('2000 of 1500');
    expect((err as Error).message).toContain('bob at tick 7');
    expect(inner.requests).toHaveLength(2);
    expect(port.spent()).toEqual({ tokensIn: 1200, tokensOut: 800, costUsd: 0, calls: 2 });
  });

  it('prices calls by model (dated names and overrides) and stops on the money budget', async () => {
    const inner = new ScriptedPort([
      { usage: { input: 1_000_000, output: 1_000_000 }, model: 'gpt-4o-mini-2024-07-18' },
    ]);
    const port = new BudgetPort(inner, { maxCostUsd: 1 });
    await port.complete(request({ params: { model: 'gpt-4o-mini' } }));
    expect(port.spent().costUsd).toBeCloseTo(0.75, 10);
    await port.complete(request({ params: { model: 'gpt-4o-mini' } }));
    await expect(port.complete(request())).rejects.toThrow(/money budget spent: \$1\.5000 of \$1/);

    const custom = new BudgetPort(
      new ScriptedPort([{ usage: { input: 2_000_000, output: 0 }, model: 'llama3' }]),
      {
        prices: { llama3: { inputPerMTok: 0.5, outputPerMTok: 1 } },
      },
    );
    await custom.complete(request({ params: { model: 'llama3' } }));
    expect(custom.spent().costUsd).toBeCloseTo(1, 10);
  });

  it('charges nothing for unknown or local models and for cached replies', async () => {
    expect(priceOf('qwen2.5:7b', {})).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    const port = new BudgetPort(new ScriptedPort([{ usage: { input: 9, output: 9 }, cached: true }]), {
      maxTokens: 1,
    });
    await port.complete(request());
    await port.complete(request());
    expect(port.spent()).toEqual({ tokensIn: 0, tokensOut: 0, costUsd: 0, calls: 0 });
  });

  it('counts the tokens of discarded attempts, also when the call fails', async () => {
    const failed = new LlmCallError('malformed', 'bad', {
      attempts: [{ error: 'malformed', backoffMs: 0, usage: { input: 3, output: 4 } }],
    });
    const port = new BudgetPort(
      new ScriptedPort([
        failed,
        {
          usage: { input: 1, output: 1 },
          attempts: [{ error: 'malformed', backoffMs: 5, usage: { input: 10, output: 20 } }],
        },
      ]),
    );
    await expect(port.complete(request())).rejects.toBe(failed);
    await port.complete(request());
    expect(port.spent()).toEqual({ tokensIn: 14, tokensOut: 25, costUsd: 0, calls: 2 });
  });
});
