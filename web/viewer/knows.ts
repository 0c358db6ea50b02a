import type { ViewModel } from '../../src/cli/commands/view/view-types.ts';
import { colourOf } from './palette.ts';

/** The names of the asymmetry classes of {@link knowsClass} (the first two items with provenance). */
export function knowsLabels(model: ViewModel): string[] {
  const [a, b] = Object.keys(model.heard).sort();
  return ['neither', `only ${a ?? '-'}`, `only ${b ?? '-'}`, 'both'];
}

/** Colour of a class index of {@link knowsLabels}: the palette's first four (neither is grey, as a first state is). */
export function knowsColour(c: number): string {
  return colourOf(c);
}

/**
 * Which items the drawn agent at position `k` had heard by `tick` (from the first-heard
 * ticks of the final snapshot's provenance): 0 neither, 1 only the first item, 2 only the
 * second, 3 both.
 */
export function knowsClass(model: ViewModel, k: number, tick: number): number {
  const items = Object.keys(model.heard).sort();
  const knows = (item: string | undefined) => {
    if (item === undefined) return false;
    const at = model.heard[item][k];
    return at >= 0 && at <= tick;
  };
  return (knows(items[0]) ? 1 : 0) + (knows(items[1]) ? 2 : 0);
}
