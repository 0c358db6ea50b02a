import { runWorld } from '../src/index.ts';
import { world } from '../worlds/epidemic/index.ts';
const n = Number(process.argv[2] ?? 10000);
for (const activation of ['uniform', 'by-state']) {
  const t0 = performance.now();
  const r = await runWorld(world as never, { params: { n, initial: 10, activation }, seed: 3, ticks: 100000 });
  console.log(activation, (performance.now() - t0).toFixed(0), 'ms', r.ticks, r.steps, JSON.stringify(r.summary));
}
