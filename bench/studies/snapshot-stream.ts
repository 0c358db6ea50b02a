// Peak memory of writing one snapshot of a bus with many deliveries in flight, with the
// columns as base64 strings (exportState) or as views of the bus's own columns
// (exportStateView, what the engine writes). One mode per process:
//   node --expose-gc --import tsx bench/studies/snapshot-stream.ts view|strings [rows]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageBus } from '../../src/bus/index.ts';
import { LogWriter } from '../../src/replay/index.ts';

const mode = process.argv[2] === 'strings' ? 'strings' : 'view';
const rows = Number(process.argv[3] ?? 20_000_000);
const size = 1000;
const bus = new MessageBus({ size });
bus.defineChannel(
  'all',
  Array.from({ length: size }, (_, i) => i),
);
for (let s = 0; s * (size - 1) < rows; s++)
  bus.post(s % size, 0, { address: { to: 'channel', channel: 'all' }, kind: 'tell' });
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const base = process.memoryUsage();
let peak = base.rss;
const dir = mkdtempSync(join(tmpdir(), 'grapevine-bench-'));
const log = LogWriter.create(join(dir, 'snap.ndjson'), {
  engine: 'bench',
  world: { id: 'x', version: 1 },
  seed: 1,
});
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const cpu = process.cpuUsage();
const state = mode === 'view' ? bus.exportStateView() : bus.exportState();
peak = Math.max(peak, process.memoryUsage().rss);
log.append('snapshot', 0, { state });
peak = Math.max(peak, process.memoryUsage().rss);
log.close();
const used = process.cpuUsage(cpu);
clearInterval(timer);
rmSync(dir, { recursive: true, force: true });
const mib = (n: number) => (n / 2 ** 20).toFixed(0);
console.log(
  `${mode} rows=${bus.pendingCount} rss before ${mib(base.rss)} MiB, peak ${mib(peak)} MiB (+${mib(peak - base.rss)}), cpu ${((used.user + used.system) / 1e6).toFixed(2)} s`,
);
