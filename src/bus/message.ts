import type { Json } from '../core/index.ts';
import type { Topology } from '../network/topology.ts';

/** How a message was addressed. */
export type Route = 'direct' | 'neighbours' | 'channel' | 'broadcast' | 'encounter';

/** Where a message goes. `from: -1` (the world) has no neighbours. */
export type Address =
  | { to: 'agent'; id: number }
  | { to: 'neighbours' }
  | { to: 'channel'; channel: string }
  | { to: 'all' };

/**
 * One message as sent: routed once, delivered to each recipient. Recipients share the
 * object; treat it as immutable.
 */
export interface Message {
  /** Global sequence number of the send, in commit order. */
  readonly id: number;
  /** Sender's agent index, or -1 for the world itself. */
  readonly from: number;
  readonly route: Route;
  /** Channel name for channel posts. */
  readonly channel: string | undefined;
  /** What kind of message: e.g. `tell`, `ack`, `say`. */
  readonly kind: string;
  /** The knowledge item it carries, if any. */
  readonly item: string | undefined;
  /** Free JSON payload (text of an utterance, etc.). */
  readonly payload: Json | undefined;
  /** Tick it was sent at. */
  readonly sentAt: number;
  /** Tick it becomes visible. */
  readonly deliverAt: number;
}

/** What a sender provides; the bus fills in id, sender, route and times. */
export interface OutgoingMessage {
  address: Address;
  kind: string;
  item?: string;
  payload?: Json;
  /** Delivery latency in ticks (>= 1); the bus default when absent. */
  latency?: number;
}

/** What a visibility rule may consult besides the message and its recipient. */
export interface VisibilityContext {
  /**
   * The network as it is now: after any network intervention (a fork's added edge counts at
   * once). Undefined for a world without a network.
   */
  readonly network: Topology | undefined;
}

/**
 * A world's visibility rule, applied to every delivery before it reaches the recipient:
 * return the message (maybe a redacted copy) or null to withhold it. Must be a pure,
 * deterministic function of its arguments (read the network from `ctx`, not from a
 * closure: a closure keeps the network the world was built with).
 */
export type VisibilityRule = (message: Message, recipient: number, ctx: VisibilityContext) => Message | null;

/** A visibility rule with a name: full logs name the rule that withheld each delivery. */
export interface NamedVisibilityRule {
  /** Short name, e.g. `direct-needs-edge`. */
  readonly name: string;
  readonly rule: VisibilityRule;
}

/** A world's visibility: one rule (named `visibility` in logs), or named rules applied in order. */
export type Visibility = VisibilityRule | readonly NamedVisibilityRule[];
