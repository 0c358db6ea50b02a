import type {
  Message,
  NamedVisibilityRule,
  Visibility,
  VisibilityContext,
  VisibilityRule,
} from './message.ts';

/** The name a single unnamed rule gets in logs. */
export const DEFAULT_RULE_NAME = 'visibility';

/**
 * A world's visibility as the bus applies it: one composed rule for the hot path, and a
 * way to name the rule that withholds a delivery (asked only when a full log records it).
 */
export class VisibilityRules {
  /** The composed rule, or undefined when the world declares none. */
  readonly apply: VisibilityRule | undefined;
  private readonly named: readonly NamedVisibilityRule[];

  constructor(visibility: Visibility | undefined) {
    this.named =
      visibility === undefined
        ? []
        : typeof visibility === 'function'
          ? [{ name: DEFAULT_RULE_NAME, rule: visibility }]
          : visibility;
    this.apply = compose(this.named);
  }

  /**
   * The name of the first rule that withholds `message` from `recipient`, or null if every
   * rule lets it through. Rules are pure, so asking again gives the answer `apply` gave.
   */
  withholding(message: Message, recipient: number, ctx: VisibilityContext): string | null {
    let m: Message = message;
    for (const { name, rule } of this.named) {
      const seen = rule(m, recipient, ctx);
      if (seen === null) return name;
      m = seen;
    }
    return null;
  }
}

function compose(rules: readonly NamedVisibilityRule[]): VisibilityRule | undefined {
  if (rules.length === 0) return undefined;
  if (rules.length === 1) return rules[0].rule;
  return (message, recipient, ctx) => {
    let m: Message | null = message;
    for (const { rule } of rules) {
      m = rule(m, recipient, ctx);
      if (m === null) return null;
    }
    return m;
  };
}
