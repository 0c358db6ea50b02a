import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  FAULT_KINDS,
  type LocalServerOptions,
  localServerOptionsSchema,
  type ResolvedLocalServerOptions,
  startLocalLlmServer,
} from '../../src/llm-server/index.ts';

describe('localServerOptionsSchema', () => {
  it('fills the defaults', () => {
    expect(localServerOptionsSchema.parse({})).toEqual({
      host: '127.0.0.1',
      port: 0,
      model: 'grapevine-local',
      latencyMs: 0,
      latencyJitterMs: 0,
      faultRate: 0,
      faultKinds: [...FAULT_KINDS],
      retryAfterSeconds: 1,
      faultTimeoutMs: 0,
      seed: 0,
      logprobs: true,
    });
  });

  it('accepts command-line strings', () => {
    const parsed = localServerOptionsSchema.parse({
      port: '8787',
      latencyMs: '50',
      faultRate: '0.3',
      faultKinds: '429, drop',
    });
    expect(parsed).toMatchObject({ port: 8787, latencyMs: 50, faultRate: 0.3, faultKinds: ['429', 'drop'] });
  });

  it('rejects out-of-range values and unknown fault kinds', () => {
    expect(localServerOptionsSchema.safeParse({ faultRate: 1.5 }).success).toBe(false);
    expect(localServerOptionsSchema.safeParse({ port: 'eighty' }).success).toBe(false);
    expect(localServerOptionsSchema.safeParse({ faultKinds: '429,oops' }).success).toBe(false);
    expect(localServerOptionsSchema.safeParse({ faultKinds: [] }).success).toBe(false);
  });

  it('describes every option, and matches the typed options', () => {
    for (const [key, schema] of Object.entries(localServerOptionsSchema.shape))
      expect(schema.description, key).toBeTruthy();
    expectTypeOf<LocalServerOptions>().toExtend<z.input<typeof localServerOptionsSchema>>();
    expectTypeOf<ResolvedLocalServerOptions>().toExtend<Required<Omit<LocalServerOptions, 'responders'>>>();
  });
});

describe('startLocalLlmServer option errors', () => {
  it('throws a ConfigError naming the flag for a bad option', async () => {
    await expect(startLocalLlmServer({ faultRate: 2 })).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringContaining('--fault-rate'),
    });
  });

  it('throws a ConfigError with a hint when the port is taken', async () => {
    const first = await startLocalLlmServer();
    try {
      await expect(startLocalLlmServer({ port: first.port })).rejects.toMatchObject({
        code: 'E_CONFIG',
        hint: expect.stringContaining('--port'),
      });
    } finally {
      await first.close();
    }
  });
});
