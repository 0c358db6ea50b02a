import { parse } from 'csv-parse/sync';
import { ConfigError, readInputText } from '../core/index.ts';

/** One data row of a table file with its 1-based line number. */
export interface TableRow {
  line: number;
  fields: Record<string, unknown>;
}

/**
 * Reads a CSV (header line, comma separated, RFC 4180 quoting; lines starting with `#` are
 * comments) or NDJSON (one JSON object per line; `.ndjson`/`.jsonl`) table into rows with
 * their line numbers. CSV fields stay strings; blank CSV fields are dropped.
 * @throws ConfigError naming `path` (and the line) when the file is missing or malformed.
 */
export function readTableFile(path: string, what: string): TableRow[] {
  // a regular file within the memory budget, its byte-order mark dropped (a spreadsheet's export)
  const text = readInputText(path, { what: `the ${what} file`, bytesPerByte: 32 });
  return /\.(nd)?jsonl?$/i.test(path) ? readNdjson(path, text) : readCsv(path, text);
}

function readNdjson(path: string, text: string): TableRow[] {
  const rows: TableRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ConfigError(`${path}:${i + 1}: not valid JSON`, { hint: 'write one JSON object per line' });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new ConfigError(`${path}:${i + 1}: expected a JSON object`, {
        hint: 'write one JSON object per line',
      });
    rows.push({ line: i + 1, fields: value as Record<string, unknown> });
  }
  return rows;
}

function readCsv(path: string, text: string): TableRow[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, comment: '#', skip_empty_lines: true, trim: true, info: true });
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw new ConfigError(`${path}${line ? `:${line}` : ''}: malformed CSV (${(err as Error).message})`, {
      cause: err,
      hint: 'one header line, then comma-separated rows with the same number of fields',
    });
  }
  return records.map(({ record, info }) => {
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (v !== '') fields[k] = v;
    return { line: info.lines, fields };
  });
}
