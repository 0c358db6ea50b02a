/**
 * The one palette of reports and the viewer, so that a state has one colour everywhere: a
 * region's state k is drawn in `STATE_COLOURS[k]` on the network, in its legend, in the
 * viewer's curves and in the report's figures. Grey for the first state (usually the one
 * every agent starts in: ignorant, susceptible), then the colour-blind-safe colours of
 * Okabe & Ito (2008), which series that are not states use in order.
 */
export const STATE_COLOURS: readonly string[] = [
  '#9E9E9E',
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#F0E442',
  '#000000',
];

/** Colours of series that are not states (the palette without its grey). */
export const SERIES_COLOURS: readonly string[] = STATE_COLOURS.slice(1);

/** The colour of state index `s` of a region. */
export function stateColour(s: number): string {
  return STATE_COLOURS[((s % STATE_COLOURS.length) + STATE_COLOURS.length) % STATE_COLOURS.length];
}

/** The colour of the k-th series of a chart that is not a state. */
export function seriesColour(k: number): string {
  return SERIES_COLOURS[k % SERIES_COLOURS.length];
}
