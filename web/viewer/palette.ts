/**
 * The colours of states by index: the page takes them from its model (`stateColours`, the
 * report's palette), so that a state has one colour in the network, its legend, the curves
 * and the report. Until the model is loaded, grey.
 */
let colours: readonly string[] = ['#9E9E9E'];

/** Uses the model's palette from now on. */
export function usePalette(stateColours: readonly string[]): void {
  if (stateColours.length > 0) colours = stateColours;
}

/** Colour of state index `s`. */
export function colourOf(s: number): string {
  return colours[s % colours.length];
}
