import { createRequire } from 'node:module';
import type * as CsvSync from 'csv-parse/sync';
import type { Options } from 'csv-parse/sync';
import { ConfigError } from '../core/index.ts';
import { EdgeList } from './edge-list.ts';
import type { LoadedNetwork } from './loaded-network.ts';
import { readNetworkFile } from './read-network-file.ts';

/** Options of {@link loadEdgeListCsv}. */
export interface EdgeListCsvOptions {
  /**
   * Whether the first data line is a header: `true`, `false`, or `auto` (the default),
   * which treats it as one when its first two fields are source/target, src/dst, from/to
   * or node1/node2 (any case).
   */
  header?: boolean | 'auto';
}

// csv-parse is required when a file is read, not when this module loads: every run imports
// this loader (through the network parameters), and few read an edge list.
const require = createRequire(import.meta.url);
const csvParse = (): typeof CsvSync => require('csv-parse/sync') as typeof CsvSync;

const HEADERS = new Set(['source target', 'src dst', 'from to', 'node1 node2']);

/** csv-parse's settings for an edge list: comma, tab or space separated, `#` comments, ragged rows. */
const CSV_OPTIONS: Options = {
  delimiter: [',', '\t', ' '],
  comment: '#',
  relax_column_count: true,
  skip_empty_lines: true,
  info: true,
};

/** One parsed row: its non-empty fields and its 1-based line number. */
interface Row {
  fields: string[];
  lineNo: number;
}

/**
 * Loads an undirected edge list: one `source,target` pair per line, separated by a comma,
 * tabs or spaces (runs of separators count as one), parsed by the `csv-parse` library.
 * Blank lines are skipped and `#` starts a comment (a label holding `#` must be quoted); an
 * optional header line is recognised (see {@link EdgeListCsvOptions.header}); extra columns
 * (e.g. weights) are ignored; fields may be wrapped in double quotes (which may then hold
 * separators). Labels are arbitrary strings, numbered densely in order of first appearance;
 * a line `a,a` declares agent `a` without giving it an edge. Duplicate edges are merged.
 * @throws ConfigError for a missing file, malformed CSV or a line with fewer than two fields
 * (naming the file and line number), or a file with no edges.
 */
export function loadEdgeListCsv(path: string, options: EdgeListCsvOptions = {}): LoadedNetwork {
  const text = readNetworkFile(path, 'edge list');
  const header = options.header ?? 'auto';
  const labels: string[] = [];
  const index = new Map<string, number>();
  const id = (label: string): number => {
    let i = index.get(label);
    if (i === undefined) {
      i = labels.length;
      index.set(label, i);
      labels.push(label);
    }
    return i;
  };
  const edges = new EdgeList(text.length / 10);
  let first = true;
  for (const { fields, lineNo } of dataRows(path, text)) {
    if (fields.length < 2)
      throw new ConfigError(
        `${path}:${lineNo}: expected two node labels, got ${JSON.stringify(lineAt(text, lineNo))}`,
        {
          hint: 'each line must be "source,target" (comma, tab or space separated); start comments with #',
        },
      );
    const isHeader = first && (header === true || (header === 'auto' && looksLikeHeader(fields)));
    first = false;
    if (!isHeader) edges.push(id(fields[0]), id(fields[1]));
  }
  if (edges.length === 0)
    throw new ConfigError(`${path}: the edge list has no edges`, {
      hint: 'add lines of the form "source,target"',
    });
  return { topology: edges.toTopology('csv', labels.length), labels };
}

/** The rows of `text` that hold a field (comment-only lines are dropped); CSV errors name file:line. */
function dataRows(path: string, text: string): Row[] {
  let records: { record: string[]; info: { lines: number } }[];
  const csv = csvParse();
  try {
    records = csv.parse(text, CSV_OPTIONS) as unknown as typeof records;
  } catch (cause) {
    const lineNo =
      cause instanceof csv.CsvError ? (cause as CsvSync.CsvError & { lines?: number }).lines : undefined;
    throw new ConfigError(`${path}${lineNo ? `:${lineNo}` : ''}: ${(cause as Error).message}`, {
      hint: 'close every double quote; each line must be "source,target"',
      cause,
    });
  }
  const rows: Row[] = [];
  for (const { record, info } of records) {
    const fields = record.filter((f) => f !== '');
    if (fields.length > 0) rows.push({ fields, lineNo: info.lines });
  }
  return rows;
}

/** Line `lineNo` (1-based) of `text`, trimmed. */
function lineAt(text: string, lineNo: number): string {
  return (text.split('\n', lineNo)[lineNo - 1] ?? '').trim();
}

function looksLikeHeader(fields: string[]): boolean {
  return HEADERS.has(`${fields[0].toLowerCase()} ${fields[1].toLowerCase()}`);
}
