/** JSON strings of at least this many bytes are a snapshot's columns (or candidates: any long string). */
export const LONG_STRING = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that closes the JSON string whose text starts at `from`, or -1. */
function closingQuote(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(QUOTE, from); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let k = at - 1;
    while (k >= from && bytes[k] === BACKSLASH) k--;
    if ((at - 1 - k) % 2 === 0) return at; // not escaped
  }
  return -1;
}

/**
 * Content ranges `[start, end, start, end...]` of the JSON strings of `line` that have at
 * least {@link LONG_STRING} bytes, scanning from `from` (outside any string); a string not
 * closed ends the scan.
 */
export function longStrings(line: Uint8Array, from = 0): number[] {
  const out: number[] = [];
  const n = line.length;
  for (let i = from; i < n; i++) {
    if (line[i] !== QUOTE) continue;
    // a short string (keys, most values) is walked here; a longer one is found by indexOf
    let j = i + 1;
    const stop = Math.min(n, j + 64);
    while (j < stop && line[j] !== QUOTE) j += line[j] === BACKSLASH ? 2 : 1;
    if (j >= stop) j = closingQuote(line, i + 1);
    if (j === -1 || j >= n) return out;
    if (j - i - 1 >= LONG_STRING) out.push(i + 1, j);
    i = j;
  }
  return out;
}
