import { ConfigError, readInputText } from '../../src/index.ts';

/** One data line of a numeric CSV file. */
export interface NumberRow {
  /** 1-based line number in the file. */
  line: number;
  values: number[];
}

const SEPARATOR = /[\s,]+/;

/** A regular file within the memory budget (a FIFO, device or /proc file is refused). */
function readText(path: string, what: string): string {
  return readInputText(path, { what: `the ${what} file`, bytesPerByte: 64 });
}

/**
 * Reads a CSV file of numbers with exactly `columns` fields per line (comma, tab or space
 * separated). Blank lines and `#` comments are skipped; a first data line whose fields are
 * not all numbers is taken as a header. Every other line must hold finite numbers.
 * @throws ConfigError naming `path:line` for a malformed line, or for a file with no data.
 */
export function readNumberRows(path: string, columns: number, what: string, format: string): NumberRow[] {
  const rows: NumberRow[] = [];
  const lines = readText(path, what).split('\n');
  let first = true;
  lines.forEach((raw, k) => {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const fields = text.split(SEPARATOR);
    const values = fields.map((f) => (f === '' ? Number.NaN : Number(f)));
    const numeric = values.every((v) => Number.isFinite(v));
    if (first && !numeric && fields.length === columns) {
      first = false;
      return;
    }
    first = false;
    if (!numeric || values.length !== columns)
      throw new ConfigError(`${path}:${k + 1}: expected "${format}", got ${JSON.stringify(text)}`, {
        hint: `each line of the ${what} file is "${format}" with numbers; start comments with #`,
      });
    rows.push({ line: k + 1, values });
  });
  if (rows.length === 0)
    throw new ConfigError(`${path}: the ${what} file has no data lines`, { hint: `add "${format}" lines` });
  return rows;
}

/** Checks that `i` is an agent index below `size` (when known), naming the line otherwise. */
export function checkAgent(path: string, row: NumberRow, i: number, size: number): void {
  if (!Number.isInteger(i) || i < 0 || i >= size)
    throw new ConfigError(`${path}:${row.line}: ${i} is not an agent index (0 to ${size - 1})`, {
      hint: 'agents are numbered 0..n-1',
    });
}
