import { readInputText } from '../core/index.ts';

/**
 * Memory per byte of an edge list while it is parsed: csv-parse's records and their line
 * numbers, the text, the labels and the edge list. A 12.9 MB file of 10^6 lines took 77
 * bytes per byte (heap and buffers, Node 20); the check uses a round lower figure.
 */
export const EDGE_LIST_BYTES_PER_BYTE = 64;

/**
 * Reads a network file as UTF-8 text (without a byte-order mark) through `readInputFile`:
 * a regular file only (no FIFO, device or /proc file), within the memory budget at
 * `bytesPerByte`, in bounded time. Internal to the network module.
 * @param what What the file should be, for the message, e.g. `edge list`.
 * @throws ConfigError naming the file and why it cannot be read.
 */
export function readNetworkFile(path: string, what: string, bytesPerByte = EDGE_LIST_BYTES_PER_BYTE): string {
  return readInputText(path, { what, bytesPerByte });
}
