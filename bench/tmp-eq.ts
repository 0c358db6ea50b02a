import { runWorld } from '../src/index.ts';
import { world as epi } from '../worlds/epidemic/index.ts';
import { world as rumor } from '../worlds/rumor/index.ts';
import { world as opinion } from '../worlds/opinion/index.ts';
const cases: [string, any, Record<string, unknown>][] = [
  ['sir', epi, { n: 200, initial: 2, contactRate: 0.75, gamma: 0.25, beta: 0.6 }],
  ['sis', epi, { n: 100, model: 'sis', initial: 5, contactRate: 0.5, gamma: 0.3, beta: 0.8 }],
  ['dk', rumor, { n: 200, network: 'complete', model: 'daley-kendall', turns: 'async', insiders: 0, spreaders: 1, factBlocksRumor: false }],
  ['mt', rumor, { n: 200, network: 'complete', model: 'maki-thompson', turns: 'async', insiders: 0, spreaders: 1, factBlocksRumor: false }],
  ['ic', rumor, { n: 200, network: 'erdos-renyi', k: 6, model: 'independent-cascade', p: 0.3, turns: 'async', insiders: 0, spreaders: 2 }],
  ['voter', opinion, { n: 50, model: 'voter', network: 'watts-strogatz', k: 4 }],
  ['dw', opinion, { n: 100, model: 'deffuant-weisbuch', network: 'complete', epsilon: 0.3, tolerance: 1e-3 }],
];
for (const [name, w, params] of cases) for (const activation of ['uniform', 'by-state']) {
  const t0 = performance.now();
  let steps = 0, ticks = 0;
  for (let s = 1; s <= 20; s++) { const r = await runWorld(w, { params: { ...params, activation }, seed: s, ticks: 100000 }); steps += r.steps; ticks += r.ticks; }
  console.log(name, activation, ((performance.now() - t0) / 20).toFixed(1), 'ms/run', steps / 20, ticks / 20);
}
