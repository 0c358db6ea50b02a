import { ConfigError } from '../core/index.ts';
import type { LlmPort, LlmReply, LlmRequest } from './port.ts';

/**
 * Serves calls up to a tick from one port (the recorded replies of a log) and later calls
 * from another (a live endpoint): how a fork or a resumed run replays its shared past
 * without a network and then goes on live.
 */
export class SwitchingPort implements LlmPort {
  constructor(
    private readonly past: LlmPort,
    private readonly future: LlmPort | undefined,
    /** Last tick served by `past`. */
    readonly untilTick: number,
  ) {}

  complete(request: LlmRequest): Promise<LlmReply> {
    if (request.tick <= this.untilTick) return this.past.complete(request);
    if (!this.future) {
      return Promise.reject(
        new ConfigError(
          `an LLM call at tick ${request.tick} needs a live endpoint (the recording ends at tick ${this.untilTick})`,
          {
            hint: 'give --llm-base-url, or let grapevine start its local server',
          },
        ),
      );
    }
    return this.future.complete(request);
  }
}
