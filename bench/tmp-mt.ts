import { runWorld } from '../src/index.ts';
import { world as rumor } from '../worlds/rumor/index.ts';
const n = Number(process.argv[2] ?? 1000000);
const c0 = process.cpuUsage();
const r = await runWorld(rumor as never, { params: { n, model: 'maki-thompson', network: 'complete', turns: 'async', spreaders: 1, insiders: 0, factBlocksRumor: false }, seed: 1, ticks: 100000 });
const c = process.cpuUsage(c0);
console.log('µs cpu/event', ((c.user + c.system) / r.steps).toFixed(2), r.steps);
