/**
 * Sorts every row of a CSR array in place: insertion sort for short rows (the common case,
 * and it stays in the cache), the typed-array sort for long ones. Internal to the network
 * module.
 */
export function sortRows(offsets: Int32Array, rows: Int32Array): void {
  const size = offsets.length - 1;
  for (let i = 0; i < size; i++) {
    const start = offsets[i];
    const end = offsets[i + 1];
    if (end - start > 32) {
      rows.subarray(start, end).sort();
      continue;
    }
    for (let p = start + 1; p < end; p++) {
      const v = rows[p];
      let q = p - 1;
      while (q >= start && rows[q] > v) {
        rows[q + 1] = rows[q];
        q--;
      }
      rows[q + 1] = v;
    }
  }
}
