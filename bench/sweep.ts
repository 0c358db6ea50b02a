// Sweep throughput: the same sweep of the rumour world with 1 and with 2 local worker
// threads, and with 2 `grapevine worker` processes over NATS JetStream on loopback (needs
// nats-server on the PATH), through the built CLI (run `npm run build` first). Prints wall
// and CPU seconds (user+sys of every process, from /usr/bin/time and /proc), peak RSS, the parallel
// efficiency T1 / (2 · T2), the NATS overhead per run against the local 2-thread pool, and
// checks that the three results tables are equal. On a loaded machine trust CPU and ratios.
//
//   npx tsx bench/sweep.ts [--runs 200] [--n 10000] [--ticks 1000] [--no-nats]
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { timedCli, type Usage } from './tools/timed-cli.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    n: { type: 'string', default: '10000' },
    ticks: { type: 'string', default: '1000' },
    'no-nats': { type: 'boolean', default: false },
  },
});
const BETAS = ['0.05', '0.1', '0.2', '0.4'];
const replicates = Math.ceil(Number(values.runs) / BETAS.length);
const total = BETAS.length * replicates;
const BIN = resolve('bin/grapevine.mjs');
const OUT = resolve('bench/out');

const timed = (args: string[], tag: string) => timedCli(OUT, args, tag);

function sweepArgs(out: string): string[] {
  rmSync(out, { recursive: true, force: true });
  return [
    'sweep',
    'rumor',
    ...['--grid', `beta=${BETAS.join(',')}`, '--set', `n=${values.n}`],
    ...['--replicates', String(replicates), '--ticks', String(values.ticks), '--seed', '1'],
    ...['--out', out, '--json'],
  ];
}

async function local(workers: number): Promise<Usage & { table: string }> {
  const out = join(OUT, `sweep-w${workers}`);
  const r = await timed([...sweepArgs(out), '--workers', String(workers)], `sweep-w${workers}`);
  return { ...r, table: readFileSync(join(out, 'results.csv'), 'utf8') };
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => done(p));
    });
  });
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((done) => {
      const c = new Socket().once('connect', () => done(true)).once('error', () => done(false));
      c.connect(port, '127.0.0.1');
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('nats-server did not start');
}

/** CPU seconds (user+sys, all threads) and peak RSS of a live process, from /proc. */
function procUsage(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpu, rssMb: Number(hwm?.[1] ?? 0) / 1024 };
}

/** 2 worker processes (1 thread each) and the sweep's coordinator over a fresh nats-server. */
async function overNats(): Promise<Usage & { table: string; coordinatorCpu: number }> {
  const port = await freePort();
  const store = join(OUT, 'nats-store');
  rmSync(store, { recursive: true, force: true });
  const server = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], {
    stdio: 'ignore',
  });
  await listening(port);
  const url = `nats://127.0.0.1:${port}`;
  const workers = [1, 2].map(() =>
    spawn(process.execPath, [BIN, 'worker', '--queue', url, '--logs', join(OUT, 'nats-logs'), '--quiet'], {
      stdio: 'ignore',
    }),
  );
  try {
    const out = join(OUT, 'sweep-nats');
    const coordinator = await timed([...sweepArgs(out), '--queue', url], 'sweep-nats');
    const ws = workers.map((w) => procUsage(w.pid as number));
    return {
      wall: coordinator.wall,
      cpu: coordinator.cpu + ws.reduce((s, w) => s + w.cpu, 0),
      rssMb: Math.max(coordinator.rssMb, ...ws.map((w) => w.rssMb)),
      coordinatorCpu: coordinator.cpu,
      table: readFileSync(join(out, 'results.csv'), 'utf8'),
    };
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    server.kill('SIGTERM');
  }
}

const line = (name: string, u: Usage) =>
  `${name}: wall ${u.wall.toFixed(1)} s (${(total / u.wall).toFixed(2)} runs/s), CPU ${u.cpu.toFixed(1)} s (${((u.cpu / total) * 1000).toFixed(0)} ms/run), peak RSS ${u.rssMb.toFixed(0)} MB`;

mkdirSync(OUT, { recursive: true });
const one = await local(1);
const two = await local(2);
console.log(`sweep of ${total} rumour runs, n=${values.n}, ticks <= ${values.ticks}`);
console.log(line('local, 1 thread ', one));
console.log(line('local, 2 threads', two));
console.log(
  `speed-up ${(one.wall / two.wall).toFixed(2)}, parallel efficiency ${((one.wall / (2 * two.wall)) * 100).toFixed(0)}%`,
);
console.log(`results tables equal (1 vs 2 threads): ${one.table === two.table}`);
if (!values['no-nats']) {
  const nats = await overNats();
  console.log(line('NATS, 2 workers ', nats));
  console.log(
    `NATS overhead per run vs the local 2-thread pool: wall ${(((nats.wall - two.wall) / total) * 1000).toFixed(0)} ms, CPU ${(((nats.cpu - two.cpu) / total) * 1000).toFixed(0)} ms (coordinator CPU ${nats.coordinatorCpu.toFixed(1)} s)`,
  );
  console.log(`results tables equal (NATS vs local): ${nats.table === one.table}`);
}
