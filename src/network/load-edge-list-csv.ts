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

const HEADERS = new Set(['source target', 'src dst', 'from to', 'node1 node2']);
const SEPARATOR = /[\s,]+/;

/**
 * Loads an undirected edge list: one `source,target` pair per line, separated by a comma,
 * tabs or spaces. Blank lines and lines starting with `#` are skipped, an optional header
 * line is recognised (see {@link EdgeListCsvOptions.header}), extra columns (e.g. weights)
 * are ignored, and fields may be wrapped in double quotes (but cannot contain separators).
 * Labels are arbitrary strings, numbered densely in order of first appearance; a line
 * `a,a` declares agent `a` without giving it an edge. Duplicate edges are merged.
 * @throws ConfigError for a missing file, a line with fewer than two fields (naming the
 * file and line number), or a file with no edges.
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
  forEachDataLine(text, (line, lineNo) => {
    const fields = parseFields(path, line, lineNo);
    const isHeader = first && (header === true || (header === 'auto' && looksLikeHeader(fields)));
    first = false;
    if (!isHeader) edges.push(id(fields[0]), id(fields[1]));
  });
  if (edges.length === 0)
    throw new ConfigError(`${path}: the edge list has no edges`, {
      hint: 'add lines of the form "source,target"',
    });
  return { topology: edges.toTopology('csv', labels.length), labels };
}

/** Calls `fn` with each trimmed line that is neither blank nor a comment, and its 1-based number. */
function forEachDataLine(text: string, fn: (line: string, lineNo: number) => void): void {
  let lineNo = 0;
  for (let pos = 0; pos < text.length; ) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end).trim();
    pos = end + 1;
    lineNo++;
    if (line !== '' && !line.startsWith('#')) fn(line, lineNo);
  }
}

function parseFields(path: string, line: string, lineNo: number): string[] {
  const fields = line.split(SEPARATOR).map(unquote);
  if (fields.length < 2 || fields[0] === '' || fields[1] === '')
    throw new ConfigError(`${path}:${lineNo}: expected two node labels, got ${JSON.stringify(line)}`, {
      hint: 'each line must be "source,target" (comma, tab or space separated); start comments with #',
    });
  return fields;
}

function unquote(field: string): string {
  return field.length >= 2 && field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1) : field;
}

function looksLikeHeader(fields: string[]): boolean {
  return HEADERS.has(`${fields[0].toLowerCase()} ${fields[1].toLowerCase()}`);
}
