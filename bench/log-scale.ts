/**
 * Log writer and scanner at population scale: writes N events (default one million, in
 * ticks of 1024, flushed at each tick), scans the log back, and checks that the scan sees
 * every line, the last seq and tick, and the writer's digest. Exits 1 when a check fails.
 * This was a unit test (test/replay/log-io.test.ts keeps the same check at 10^5 events).
 *
 *   npx tsx bench/log-scale.ts [--n 1000000] [--gzip]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LogWriter, scanLog } from '../src/replay/index.ts';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '1000000' }, gzip: { type: 'boolean' } },
});
const n = Number(values.n);
const dir = mkdtempSync(join(tmpdir(), 'grapevine-log-scale-'));
const path = join(dir, values.gzip ? 'log.ndjson.gz' : 'log.ndjson');
const header = {
  engine: 'grapevine-bench',
  world: { id: 'rumor', version: 1 },
  seed: 42,
  params: { n: 1024 },
};

const cpu0 = process.cpuUsage();
const writer = LogWriter.create(path, header);
for (let i = 1; i <= n; i++) {
  writer.append('act', i >> 10, { agent: i & 1023, item: 'rumour-1' });
  if ((i & 1023) === 0) writer.flush();
}
const digest = writer.close();
const cpuWrite = process.cpuUsage(cpu0);
const summary = await scanLog(path);
const cpuAll = process.cpuUsage(cpu0);
rmSync(dir, { recursive: true, force: true });

const ok =
  summary.lastSeq === n &&
  summary.lines === n + 1 &&
  summary.lastTick === n >> 10 &&
  summary.digest === digest &&
  !summary.truncated;
const s = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(2);
process.stdout.write(
  `| events | write CPU s | write+scan CPU s | peak RSS MiB | check |\n|--:|--:|--:|--:|---|\n` +
    `| ${n} | ${s(cpuWrite)} | ${s(cpuAll)} | ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} | ${ok ? 'ok' : 'FAILED'} |\n`,
);
if (!ok) {
  process.stderr.write(`scan disagrees with the writer: ${JSON.stringify({ summary, digest })}\n`);
  process.exitCode = 1;
}
