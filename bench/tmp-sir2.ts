import { runWorld } from '../src/index.ts';
import { world } from '../worlds/epidemic/index.ts';
const n = Number(process.argv[2] ?? 100000);
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const r = await runWorld(world as never, { params: { n, initial: 10 }, seed: 3 + k, ticks: 100000 });
  console.log((performance.now() - t0).toFixed(0), 'ms', r.ticks, r.steps, r.summary.finalSize);
}
