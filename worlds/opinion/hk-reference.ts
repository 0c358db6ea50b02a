/**
 * Hegselmann & Krause (2002, JASSS 5(3)) bounded confidence on a complete graph, written
 * apart from the world's message-passing update: at every step each agent takes the mean of
 * all opinions within ε of its own (inclusive, its own included), all at once from the
 * previous step's opinions. Stops at the first step in which no opinion moved by `tolerance`
 * or more (the world's stop rule), or after `maxSteps`. Returns the final opinions and the
 * steps taken.
 */
export function hegselmannKrause(
  x0: readonly number[],
  epsilon: number,
  tolerance: number,
  maxSteps: number,
): { x: number[]; steps: number } {
  let x = [...x0];
  const n = x.length;
  for (let step = 1; step <= maxSteps; step++) {
    const next = new Array<number>(n);
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      let count = 0;
      for (let j = 0; j < n; j++)
        if (Math.abs(x[j] - x[i]) <= epsilon) {
          sum += x[j];
          count++;
        }
      next[i] = sum / count;
      moved = Math.max(moved, Math.abs(next[i] - x[i]));
    }
    x = next;
    if (moved < tolerance) return { x, steps: step };
  }
  return { x, steps: maxSteps };
}
