import type { ViewModel } from '../../src/cli/commands/view/view-types.ts';

/**
 * Draws the sampled network on a canvas: edges in light grey, each agent a dot in the colour
 * `colour(k)` gives its position k in `model.nodes`; `selected` is ringed.
 */
export function drawNetwork(
  canvas: HTMLCanvasElement,
  model: ViewModel,
  colour: (k: number) => string,
  selected: number | null,
): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const w = canvas.width;
  const h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = 'rgba(0,0,0,0.12)';
  ctx.lineWidth = 0.6;
  ctx.beginPath();
  for (const [a, b] of model.edges) {
    ctx.moveTo(model.x[a] * w, model.y[a] * h);
    ctx.lineTo(model.x[b] * w, model.y[b] * h);
  }
  ctx.stroke();
  const r = Math.max(1.5, Math.min(6, 600 / Math.sqrt(model.nodes.length) / 4));
  for (let k = 0; k < model.nodes.length; k++) {
    ctx.fillStyle = colour(k);
    ctx.beginPath();
    ctx.arc(model.x[k] * w, model.y[k] * h, r, 0, 2 * Math.PI);
    ctx.fill();
    if (model.nodes[k] === selected) {
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 2;
      ctx.stroke();
    }
  }
}

/** The agent drawn nearest to a click (in CSS pixels of the canvas), or null when none is close. */
export function agentAt(canvas: HTMLCanvasElement, model: ViewModel, px: number, py: number): number | null {
  const x = px / canvas.clientWidth;
  const y = py / canvas.clientHeight;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (let k = 0; k < model.nodes.length; k++) {
    const d = (model.x[k] - x) ** 2 + (model.y[k] - y) ** 2;
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best >= 0 && Math.sqrt(bestD) < 0.03 ? model.nodes[best] : null;
}
