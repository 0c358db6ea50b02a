import { RunError } from '../core/index.ts';
import type { Topology } from '../network/topology.ts';
import type { DeliveryBatch } from './delivery-batch.ts';
import type { Address, Route } from './message.ts';

/**
 * Expands an address into delivery rows: the population size, the network for
 * `neighbours` and the declared channels. Cost is proportional to the recipients.
 */
export class AddressRouter {
  private readonly channels = new Map<string, Int32Array>();

  /**
   * @param size population size.
   * @param topology network for `neighbours` addressing, if any.
   */
  constructor(
    readonly size: number,
    public topology: Topology | undefined,
  ) {}

  /** Throws unless `i` is an agent of the population. */
  checkAgent(i: number, what: string): void {
    checkAgent(i, this.size, what);
  }

  /** Declares a channel and its members (agent indices). */
  defineChannel(name: string, members: readonly number[] | Int32Array): void {
    const sorted = Int32Array.from(members).sort();
    for (const m of sorted) this.checkAgent(m, `member of channel "${name}"`);
    this.channels.set(name, sorted);
  }

  /** Members of a channel, ascending. */
  channelMembers(name: string): Int32Array {
    const members = this.channels.get(name);
    if (!members)
      throw new RunError(`unknown channel "${name}"`, {
        hint: `declared channels: ${[...this.channels.keys()].join(', ') || 'none'}`,
      });
    return members;
  }

  /** Adds a delivery row of message `m` (sent by `from`) for every recipient of `address`. */
  route(batch: DeliveryBatch, m: number, from: number, address: Address): void {
    switch (address.to) {
      case 'agent':
        this.checkAgent(address.id, 'recipient');
        batch.add(address.id, m);
        return;
      case 'neighbours': {
        const topo = this.topology;
        if (!topo || from < 0)
          throw new RunError(
            from < 0
              ? 'the world has no neighbours to send to'
              : 'this world has no network: cannot send to neighbours',
          );
        const d = topo.degree(from);
        for (let k = 0; k < d; k++) batch.add(topo.neighbour(from, k), m);
        return;
      }
      case 'channel':
        for (const member of this.channelMembers(address.channel)) if (member !== from) batch.add(member, m);
        return;
      case 'all':
        for (let i = 0; i < this.size; i++) if (i !== from) batch.add(i, m);
        return;
    }
  }
}

/** The route a message sent to `address` carries; throws on an unknown address. */
export function routeOf(address: Address): Route {
  switch (address.to) {
    case 'agent':
      return 'direct';
    case 'neighbours':
      return 'neighbours';
    case 'channel':
      return 'channel';
    case 'all':
      return 'broadcast';
    default:
      throw new RunError(`unknown address ${JSON.stringify(address)}`, {
        hint: "use { to: 'agent', id }, { to: 'neighbours' }, { to: 'channel', channel } or { to: 'all' }",
      });
  }
}

/** Throws unless `i` is an agent of a population of `size`; `what` names it in the message. */
export function checkAgent(i: number, size: number, what: string): void {
  if (!Number.isInteger(i) || i < 0 || i >= size)
    throw new RunError(`${what} ${i} is not an agent (population ${size})`);
}
