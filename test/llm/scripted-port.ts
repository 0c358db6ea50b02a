import type { LlmPort, LlmReply, LlmRequest } from '../../src/llm/index.ts';

/** One scripted outcome: a reply text, a reply, or an error to throw. */
export type Step = string | Partial<LlmReply> | Error | ((request: LlmRequest) => Promise<LlmReply>);

/**
 * A test double of the inner port a layer wraps: plays a script of outcomes in order (the
 * last one repeats) and keeps every request it saw.
 */
export class ScriptedPort implements LlmPort {
  readonly requests: LlmRequest[] = [];
  private i = 0;

  constructor(private readonly script: Step[]) {}

  async complete(request: LlmRequest): Promise<LlmReply> {
    this.requests.push(request);
    const step = this.script[Math.min(this.i++, this.script.length - 1)];
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(request);
    const partial = typeof step === 'string' ? { text: step } : step;
    return {
      text: '',
      usage: { input: 10, output: 5 },
      model: request.params.model,
      attempts: [],
      ...partial,
    };
  }
}

/** A request with sensible defaults. */
export function request(over: Partial<LlmRequest> = {}): LlmRequest {
  return {
    caller: 'alice',
    tick: 1,
    purpose: 'decide',
    messages: [
      { role: 'system', content: 'You are Alice, a villager.' },
      { role: 'user', content: 'Bob says the mill burned down. What do you do?' },
    ],
    params: { model: 'test-model', temperature: 0, seed: 1 },
    ...over,
  };
}
