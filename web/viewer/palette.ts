/** Colours of states by index, and of the asymmetry classes. */
export const PALETTE = [
  '#c8c8c8',
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
];

/** Colour of state index `s`. */
export function colourOf(s: number): string {
  return PALETTE[s % PALETTE.length];
}
