import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { ConfigError, readInputFile, sha256Hex, type z } from '../../src/index.ts';

/** One row of a table file with the 1-based line it starts on. */
export interface TableRow {
  line: number;
  value: Record<string, unknown>;
}

/** A table file read whole: its rows and the sha256 of its bytes (recorded in the log header). */
export interface TableFile {
  path: string;
  sha256: string;
  rows: TableRow[];
}

function bad(path: string, line: number, what: string, hint: string): ConfigError {
  return new ConfigError(`${path}:${line}: ${what}`, { hint });
}

/** CSV: a header line, then one row per line; empty cells are left out of the row. */
function csvRows(path: string, text: string): TableRow[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(text, { columns: true, info: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (cause) {
    const line = (cause as { lines?: number }).lines ?? 1;
    throw bad(path, line, `not valid CSV (${(cause as Error).message})`, 'check quoting and column counts');
  }
  return records.map(({ record, info }) => ({
    line: info.lines,
    value: Object.fromEntries(Object.entries(record).filter(([, v]) => v !== '')),
  }));
}

/** JSON or YAML (JSON is read as YAML, which keeps line numbers): a list of objects. */
function yamlRows(path: string, text: string): TableRow[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const line = lines.linePos(error.pos[0]).line;
    throw bad(
      path,
      line,
      `not valid ${extname(path).slice(1).toUpperCase()} (${error.code})`,
      'fix the syntax',
    );
  }
  const root = doc.contents;
  if (!isSeq(root))
    throw bad(path, 1, 'the file must hold a list of rows', 'write a JSON array or YAML list');
  // The whole document to JS at once, so that anchors and aliases (&a / *a) resolve.
  const values = doc.toJS() as Record<string, unknown>[];
  return root.items.map((node, k) => {
    const at = (node as { range?: [number, number, number] }).range?.[0] ?? 0;
    const line = lines.linePos(at).line;
    if (!isMap(node)) throw bad(path, line, 'a row must be an object', 'write each row as key: value pairs');
    return { line, value: values[k] };
  });
}

/**
 * Reads a table of rows from a `.csv`, `.json`, `.yaml` or `.yml` file. Every error names
 * the file and line: a file that cannot be read, bad syntax, a row that is not an object.
 */
export function readTableFile(path: string): TableFile {
  // a regular file within the memory budget: a FIFO, /dev/zero or /proc file is refused
  const bytes = readInputFile(path, { what: 'table file', bytesPerByte: 32 });
  const text = bytes.toString('utf8');
  const ext = extname(path).toLowerCase();
  let rows: TableRow[];
  if (ext === '.csv') rows = csvRows(path, text);
  else if (ext === '.json' || ext === '.yaml' || ext === '.yml') rows = yamlRows(path, text);
  else
    throw new ConfigError(`${path}: unknown file type "${ext}"`, { hint: 'use .csv, .json, .yaml or .yml' });
  if (rows.length === 0) throw bad(path, 1, 'the file holds no rows', 'add at least one row');
  return { path, sha256: sha256Hex(bytes), rows };
}

/**
 * Validates every row with `schema`; the first bad row throws a ConfigError naming
 * `file:line` and the field.
 */
export function parseRows<T>(file: TableFile, schema: z.ZodType<T>, hint: string): T[] {
  return file.rows.map((row) => {
    const parsed = schema.safeParse(row.value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw bad(file.path, row.line, `${field}${issue.message}`, hint);
  });
}
