import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('export');
const log = join(dir, 'run.ndjson');

// The exports run in this process (the CLI's `main`, nothing left open): what is checked is
// the tables a command writes, and a process start costs ~0.3 CPU-s (14 of them here). The
// tampered log is refused by a real process (its exit code, no table left behind).
type Row = Record<string, unknown>;

async function exported(what: string): Promise<{ csv: Row[]; ndjson: Row[]; parquet: Row[] }> {
  for (const f of ['csv', 'ndjson', 'parquet']) {
    const r = await cliChecked([
      'export',
      log,
      '--what',
      what,
      '--format',
      f,
      '--out',
      join(dir, `${what}.${f}`),
    ]);
    expect(r.code).toBe(0);
  }
  const [head, ...body] = readFileSync(join(dir, `${what}.csv`), 'utf8')
    .trimEnd()
    .split('\n');
  const names = head.split(',');
  // metrics, agents and cascades hold no commas or quotes, so a split parses their CSV
  const csv = body.map((l) => Object.fromEntries(l.split(',').map((v, k) => [names[k], v])));
  const ndjson = lines(join(dir, `${what}.ndjson`)).map((l) => JSON.parse(l) as Row);
  const file = await asyncBufferFromFile(join(dir, `${what}.parquet`));
  const parquet = (await parquetReadObjects({ file })) as Row[];
  return { csv, ndjson, parquet };
}

function asText(rows: Row[]): Row[] {
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)])),
  );
}

beforeAll(async () => {
  const r = await cliChecked(['run', 'rumor', '--set', 'n=400', '--seed', '9', '--out', log, '--quiet']);
  expect(r.code).toBe(0);
}, 60_000);

describe('grapevine export', () => {
  it('metrics: one row per tick × metric, equal in CSV, NDJSON, Parquet and the log', async () => {
    const t = await exported('metrics');
    const ticks = lines(log)
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'tick');
    const expected = ticks.flatMap((e) =>
      Object.entries(e.metrics as Record<string, number>).map(([metric, value]) => ({
        tick: e.t,
        metric,
        value,
      })),
    );
    expect(t.ndjson).toEqual(expected);
    expect(t.parquet).toEqual(expected);
    expect(t.csv).toEqual(asText(expected));
  }, 60_000);

  it('agents and cascades: the Parquet file read back by hyparquet equals the CSV', async () => {
    for (const what of ['agents', 'cascades']) {
      const t = await exported(what);
      expect(t.parquet.length).toBeGreaterThan(0);
      expect(asText(t.parquet)).toEqual(t.csv);
      expect(t.parquet).toEqual(t.ndjson);
    }
  }, 120_000);

  it('cascades: every non-origin row names a parent who heard no later, one depth up', async () => {
    const rows = (await exported('cascades')).ndjson as {
      item: string;
      parent: number | null;
      agent: number;
      tick: number;
      depth: number;
    }[];
    const byKey = new Map(rows.map((r) => [`${r.item}/${r.agent}`, r]));
    for (const r of rows) {
      if (r.parent === null) {
        expect(r.depth).toBe(0);
        continue;
      }
      const p = byKey.get(`${r.item}/${r.parent}`)!;
      // instant encounters: a teller may have heard in the same tick, never later
      expect(p.tick).toBeLessThanOrEqual(r.tick);
      expect(p.depth).toBe(r.depth - 1);
    }
  }, 120_000);

  it('events: one row per line after the header; Parquet equals NDJSON', async () => {
    for (const f of ['ndjson', 'parquet']) {
      const r = await cliChecked([
        'export',
        log,
        '--what',
        'events',
        '--format',
        f,
        '--out',
        join(dir, `events.${f}`),
      ]);
      expect(r.code).toBe(0);
    }
    const nd = lines(join(dir, 'events.ndjson')).map((l) => JSON.parse(l));
    expect(nd.length).toBe(lines(log).length - 1);
    const pq = await parquetReadObjects({ file: await asyncBufferFromFile(join(dir, 'events.parquet')) });
    expect(pq).toEqual(nd);
  }, 60_000);

  it('refuses a tampered log with exit 2 and leaves no table behind', async () => {
    const raw = lines(log);
    raw[2] = raw[2].replace('"pending":', '"pending":1');
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${raw.join('\n')}\n`);
    const out = join(dir, 'bad.csv');
    const r = await cli(['export', bad, '--what', 'metrics', '--out', out]);
    expect(r.code).toBe(2);
    expect(existsSync(out) || existsSync(`${out}.part`)).toBe(false);
  }, 60_000);
});
