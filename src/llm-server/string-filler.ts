import { type FillContext, type FillPath, lastKey } from './fill-context.ts';
import { numberKeyword, type SchemaNode } from './schema-node.ts';

/**
 * A string for a schema node, by its `format` when it has a common one (date-time, date,
 * time, email, uri, uuid, hostname, ipv4), else by the role of its property name (see
 * `FillContext.roleOf`), then stretched or cut to `minLength`/`maxLength`.
 */
export function fillString(node: SchemaNode, ctx: FillContext, path: FillPath): string {
  const value = byFormat(node.format, ctx) ?? byRole(ctx, path);
  const min = numberKeyword(node, 'minLength') ?? 0;
  const max = numberKeyword(node, 'maxLength');
  const long = value.length >= min ? value : value.padEnd(min, value.length > 0 ? '.' : '-');
  return max === undefined ? long : long.slice(0, max);
}

function byRole(ctx: FillContext, path: FillPath): string {
  const { plan } = ctx;
  const i = path.keys.at(-1);
  const suffix = typeof i === 'number' && i > 0 ? ` (${i + 1})` : '';
  // A string in a tuple beside a score (`[reason, score]`) is the reason, whatever the tuple's name.
  if (path.besideScore && typeof i === 'number') return reason(ctx, path);
  switch (ctx.roleOf(lastKey(path))) {
    case 'text':
      return plan.text + suffix;
    case 'to':
      return plan.to ?? 'everyone';
    case 'action':
      return plan.action;
    case 'name':
      return plan.name ?? 'agent';
    case 'item':
      return plan.sharedItem ?? '';
    case 'reason':
      return reason(ctx, path) + suffix;
    default:
      return path.besideScore ? reason(ctx, path) + suffix : (plan.text || reason(ctx, path)) + suffix;
  }
}

const JUDGE_REMARKS = [
  (who: string) => `${who} is handled plausibly with room to improve, so the score sits mid-range.`,
  (who: string) => `${who} shows a fair, consistent effort here; nothing stands out either way.`,
  (who: string) => `${who} does reasonably well on this dimension, though not exceptionally.`,
];

/** A reason: a judge-style remark beside a score, else the agent explaining its choice. */
function reason(ctx: FillContext, path: FillPath): string {
  const { plan, dice } = ctx;
  if (path.besideScore) {
    const dimension = lastKey(path, (k) => ctx.roleOf(k) === 'reason') || 'overall';
    const who = plan.name ?? 'The agent';
    return `${humanize(dimension)}: ${dice.pick(`remark:${path.keys.join('.')}`, JUDGE_REMARKS)(who)}`;
  }
  const who = plan.name ? `As ${plan.name}, I` : 'I';
  const to = plan.to ? ` (to ${plan.to})` : '';
  const share = plan.sharedItem ? ' and pass on something I know' : '';
  return `${who} choose to ${plan.action}${to}${share}.`;
}

/** `social_rules` -> `Social rules`; `goalScore` -> `Goal score`. */
function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Overall';
}

function byFormat(format: unknown, ctx: FillContext): string | undefined {
  const k = ctx.dice.key;
  switch (format) {
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'date':
      return '2024-01-01';
    case 'time':
      return '00:00:00Z';
    case 'email':
      return 'agent@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uuid':
      return `${k.slice(0, 8)}-${k.slice(8, 12)}-4${k.slice(13, 16)}-8${k.slice(17, 20)}-${k.slice(20, 32)}`;
    case 'hostname':
      return 'example.com';
    case 'ipv4':
      return '127.0.0.1';
    default:
      return undefined;
  }
}
