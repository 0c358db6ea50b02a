import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { ExportTable } from './export-tables.ts';

/** File formats of `grapevine export`. */
export type ExportFormat = 'csv' | 'ndjson' | 'parquet';

const BATCH = 10_000;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: Writable): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/** Streams a table to CSV (RFC 4180 quoting by csv-stringify, a header row, empty for null). */
async function writeCsv(table: ExportTable, path: string): Promise<number> {
  const out = createWriteStream(path);
  const n = await streamCsv(table, out);
  await close(out);
  return n;
}

/** Writes a table as CSV to a stream (left open). */
async function streamCsv(table: ExportTable, out: Writable): Promise<number> {
  // csv-stringify and hyparquet-writer are loaded by the export that uses them, not when the
  // public API is imported (a world file that never exports does not pay for them).
  const { stringify } = await import('csv-stringify/sync');
  await write(out, stringify([table.columns.map((c) => c.name)]));
  let batch: (number | string | null)[][] = [];
  let n = 0;
  for await (const row of table.rows) {
    batch.push(row);
    n++;
    if (batch.length === BATCH) {
      await write(out, stringify(batch));
      batch = [];
    }
  }
  if (batch.length) await write(out, stringify(batch));
  return n;
}

/** Streams a table to NDJSON: one object per row, keys in column order. */
async function writeNdjson(table: ExportTable, path: string): Promise<number> {
  const out = createWriteStream(path);
  const n = await streamNdjson(table, out);
  await close(out);
  return n;
}

/** Writes a table as NDJSON to a stream (left open). */
async function streamNdjson(table: ExportTable, out: Writable): Promise<number> {
  let n = 0;
  for await (const row of table.rows) {
    const obj: Record<string, unknown> = {};
    table.columns.forEach((c, k) => {
      obj[c.name] = row[k];
    });
    await write(out, `${JSON.stringify(obj)}\n`);
    n++;
  }
  return n;
}

/**
 * Writes a table as CSV or NDJSON to a stream that stays open (`--out -`: standard output);
 * resolves to the number of rows. Parquet needs a file.
 */
export async function streamTable(
  table: ExportTable,
  format: 'csv' | 'ndjson',
  out: Writable,
): Promise<number> {
  return format === 'csv' ? streamCsv(table, out) : streamNdjson(table, out);
}

/** Writes a table to Parquet with hyparquet-writer (columns are gathered in memory first). */
async function writeParquet(table: ExportTable, path: string): Promise<number> {
  const data: (number | string | null)[][] = table.columns.map(() => []);
  let n = 0;
  for await (const row of table.rows) {
    for (let k = 0; k < row.length; k++) data[k].push(row[k]);
    n++;
  }
  const types = { int: 'INT32', double: 'DOUBLE', string: 'STRING' } as const;
  const { parquetWriteFile } = await import('hyparquet-writer');
  parquetWriteFile({
    filename: path,
    columnData: table.columns.map((c, k) => ({ name: c.name, data: data[k], type: types[c.type] })),
  });
  return n;
}

/**
 * Writes a table in a format; resolves to the number of rows written. The file is written
 * as `<path>.part` and renamed when complete, so a failed export (a tampered log found
 * half-way) leaves no partial table behind.
 */
export async function writeTable(table: ExportTable, format: ExportFormat, path: string): Promise<number> {
  const part = `${path}.part`;
  const writer = format === 'csv' ? writeCsv : format === 'ndjson' ? writeNdjson : writeParquet;
  try {
    const n = await writer(table, part);
    renameSync(part, path);
    return n;
  } catch (err) {
    rmSync(part, { force: true });
    throw err;
  }
}
