import { ConfigError } from '../core/index.ts';
import { NextReactionPolicy } from './next-reaction-policy.ts';
import {
  AsyncActivationPolicy,
  RandomOrderPolicy,
  RoundRobinPolicy,
  SimultaneousPolicy,
  WakeOnMessagePolicy,
} from './turn-policies.ts';
import type { TurnPolicy } from './turn-policy.ts';

/** Options a turn policy is made with. */
export interface TurnPolicyOptions {
  /** Mean wakes per agent per tick for `async` (agents without a declared rate, and mail). */
  rate?: number;
  /**
   * True when the world declares which states are passive and the rate of the others
   * (`WorldInstance.activation`): `async` then follows state (docs/TIME.md).
   */
  byState?: boolean;
}

/** One registered turn policy: what it does (for help texts) and how to make it. */
export interface TurnPolicyEntry {
  /** One line: who acts when. */
  readonly summary: string;
  create(opts: TurnPolicyOptions): TurnPolicy;
}

/** The built-in turn policies, by name: the one list their names and type derive from. */
export const TURN_POLICIES = {
  simultaneous: {
    summary: 'every due agent acts each tick on the same snapshot, committed in agent order',
    create: () => new SimultaneousPolicy(),
  },
  'round-robin': {
    summary: 'one agent per tick, in index order',
    create: () => new RoundRobinPolicy(),
  },
  'random-order': {
    summary: 'every due agent acts each tick, in a fresh seeded order',
    create: () => new RandomOrderPolicy(),
  },
  async: {
    summary:
      'continuous time: agents wake at exponential times, at the rate their state declares (passive states never wake)',
    create: (o: TurnPolicyOptions) =>
      o.byState ? new NextReactionPolicy(o.rate ?? 1) : new AsyncActivationPolicy(o.rate ?? 1),
  },
  'async-uniform': {
    summary: 'continuous time with every agent waking at one rate whatever its state',
    create: (o: TurnPolicyOptions) => new AsyncActivationPolicy(o.rate ?? 1, 'async-uniform'),
  },
  'wake-on-message': {
    summary: 'only agents with mail act (and, at tick 1, agents that start active)',
    create: () => new WakeOnMessagePolicy(),
  },
} as const satisfies Record<string, TurnPolicyEntry>;

/** Names of the built-in turn policies. */
export type TurnPolicyName = keyof typeof TURN_POLICIES;

/** Every built-in policy's name, for help texts and zod enums. */
export const TURN_POLICY_NAMES = Object.keys(TURN_POLICIES) as TurnPolicyName[];

/**
 * The turn policies a world can name: the built-in ones plus the world's own
 * (`WorldDefinition.turnPolicies`), which may not reuse a built-in name.
 */
export class TurnPolicyRegistry {
  private readonly entries: ReadonlyMap<string, TurnPolicyEntry>;

  constructor(own: Readonly<Record<string, TurnPolicyEntry>> = {}) {
    const entries = new Map<string, TurnPolicyEntry>(Object.entries(TURN_POLICIES));
    for (const [name, entry] of Object.entries(own)) {
      if (entries.has(name))
        throw new ConfigError(`the world's own turn policy "${name}" reuses a built-in name`, {
          hint: `give it another name (built-in: ${TURN_POLICY_NAMES.join(', ')})`,
        });
      entries.set(name, entry);
    }
    this.entries = entries;
  }

  /** Every name, built-in first. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** True if `name` is registered. */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Makes the policy registered as `name`. */
  create(name: string, opts: TurnPolicyOptions = {}): TurnPolicy {
    const entry = this.entries.get(name);
    if (!entry)
      throw new ConfigError(`unknown turn policy "${name}"`, {
        hint: `use one of: ${this.names().join(', ')}`,
      });
    return entry.create(opts);
  }
}

const BUILT_IN = new TurnPolicyRegistry();

/** Builds a built-in turn policy by name. */
export function createTurnPolicy(name: TurnPolicyName, opts: TurnPolicyOptions = {}): TurnPolicy {
  return BUILT_IN.create(name, opts);
}
