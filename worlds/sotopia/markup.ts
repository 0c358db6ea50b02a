/**
 * Sotopia's visibility markup, as found in scenarios and goals:
 *
 * - `<extra_info>`, `<strategy_hint>`, `<clarification_hint>`: extra text for whoever may
 *   see the text they sit in (the goal's owner, the judge); rendered without the tags;
 * - `<p viewer='agent_0'>` / `<p viewer="environment">`: a section only that viewer sees;
 *   the environment (the judge) sees every section;
 * - `<root>` / `<root viewer='agent_1'>`: Sotopia's own wrapper, same rule as `<p>`.
 *
 * {@link parseMarkup} turns a text into flat segments, each with the innermost viewer that
 * restricts it and the hint tags around it; {@link renderFor} keeps what a viewer may see.
 */

/** The hint tags: shown (without the tags) to whoever sees the surrounding text. */
export const HINT_TAGS = ['extra_info', 'strategy_hint', 'clarification_hint'] as const;

/** A hint tag. */
export type HintTag = (typeof HINT_TAGS)[number];

/** Who looks at a text: `agent_0`, `agent_1`... or `environment` (the judge, who sees all). */
export type Viewer = `agent_${number}` | 'environment';

/** One run of text with the markup that applies to it. */
export interface MarkupSegment {
  text: string;
  /** The innermost `viewer` restriction (`<p viewer=...>`, `<root viewer=...>`), or null: anyone who sees the text. */
  viewer: string | null;
  /** Hint tags around the text, outermost first (empty: plain text). */
  tags: HintTag[];
}

/** Markup that cannot be parsed (unknown or unbalanced tag). */
export class MarkupError extends Error {}

const TAG = /<(\/?)([A-Za-z_][\w-]*)((?:\s+[\w-]+\s*=\s*(?:'[^']*'|"[^"]*"))*)\s*(\/?)>/g;

interface Open {
  name: string;
  viewer: string | null;
}

function viewerAttr(attrs: string, name: string): string | null {
  const m = /\bviewer\s*=\s*(?:'([^']*)'|"([^"]*)")/.exec(attrs);
  const viewer = m ? (m[1] ?? m[2]) : null;
  if (viewer !== null && !/^(agent_\d+|environment)$/.test(viewer))
    throw new MarkupError(`<${name}> has an unknown viewer "${viewer}"`);
  return viewer;
}

function isHint(name: string): name is HintTag {
  return (HINT_TAGS as readonly string[]).includes(name);
}

function push(out: MarkupSegment[], stack: readonly Open[], text: string): void {
  if (text === '') return;
  let viewer: string | null = null;
  for (const o of stack) if (o.viewer !== null) viewer = o.viewer;
  const tags = stack.map((o) => o.name).filter(isHint);
  out.push({ text, viewer, tags });
}

/** Parses a scenario or goal into segments. Throws {@link MarkupError} on unknown or unbalanced tags. */
export function parseMarkup(text: string): MarkupSegment[] {
  const out: MarkupSegment[] = [];
  const stack: Open[] = [];
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    push(out, stack, text.slice(at, m.index));
    at = m.index + m[0].length;
    const [, closing, name, attrs, selfClosing] = m;
    if (!isHint(name) && name !== 'p' && name !== 'root')
      throw new MarkupError(`unknown tag <${closing}${name}>`);
    if (selfClosing) continue;
    if (!closing) {
      stack.push({ name, viewer: name === 'p' || name === 'root' ? viewerAttr(attrs, name) : null });
      continue;
    }
    const open = stack.pop();
    if (open?.name !== name)
      throw new MarkupError(`</${name}> closes ${open ? `<${open.name}>` : 'nothing'}`);
  }
  if (stack.length > 0) throw new MarkupError(`<${stack[stack.length - 1].name}> is never closed`);
  push(out, stack, text.slice(at));
  return out;
}

/** True if `viewers` may see a segment restricted to `viewer` (the environment sees everything). */
export function canSee(viewer: string | null, viewers: readonly Viewer[]): boolean {
  return viewer === null || viewers.includes('environment') || viewers.includes(viewer as Viewer);
}

/** Collapses runs of white space and trims. */
export function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What `viewers` see of a text: the segments they may see, hint tags removed, white space
 * tidied. `renderFor(goal, ['agent_0'])` is agent 0's view of its goal;
 * `renderFor(scenario, ['environment'])` the judge's view of the scenario.
 */
export function renderFor(text: string | readonly MarkupSegment[], viewers: readonly Viewer[]): string {
  const segments = typeof text === 'string' ? parseMarkup(text) : text;
  return tidy(
    segments
      .filter((s) => canSee(s.viewer, viewers))
      .map((s) => s.text)
      .join(''),
  );
}

/**
 * What `viewers` see of a text with its white space kept, as Sotopia's XML renderer gives
 * it (the visible text nodes joined, tags removed).
 */
export function renderKeepingSpace(text: string, viewers: readonly Viewer[]): string {
  return parseMarkup(text)
    .filter((s) => canSee(s.viewer, viewers))
    .map((s) => s.text)
    .join('');
}

/** The text outside every tag and restriction (e.g. a goal without its hints), tidied; emptied brackets dropped. */
export function plainText(text: string | readonly MarkupSegment[]): string {
  const segments = typeof text === 'string' ? parseMarkup(text) : text;
  const kept = segments
    .filter((s) => s.viewer === null && s.tags.length === 0)
    .map((s) => s.text)
    .join('');
  return tidy(kept.replace(/\(\s*\)/g, ''));
}
