// Row operations on CSR arrays (`offsets` of length size + 1, `rows`), shared by the
// network module's builders (CsrTopology, UpperRows). Internal to the network module.

/**
 * Sorts every row of a CSR array in place: insertion sort for short rows (the common case,
 * and it stays in the cache), the typed-array sort for long ones. Internal to the network
 * module.
 */
export function sortRows(offsets: Int32Array, rows: Int32Array): void {
  const size = offsets.length - 1;
  sortRowRange(offsets, rows, 0, size, offsets[size]);
}

/**
 * Sorts rows `first .. end - 1` as {@link sortRows} does; `last` is where row end - 1 ends
 * (`offsets[end]`, which need not be set yet).
 */
export function sortRowRange(
  offsets: Int32Array,
  rows: Int32Array,
  first: number,
  end: number,
  last: number,
): void {
  for (let i = first; i < end; i++) {
    const start = offsets[i];
    const stop = i + 1 < end ? offsets[i + 1] : last;
    if (stop - start > 32) {
      rows.subarray(start, stop).sort();
      continue;
    }
    for (let p = start + 1; p < stop; p++) {
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

/**
 * Turns degrees `offsets[0..size)` into row ends in place (`offsets[i]` = end of row i,
 * `offsets[size]` = total), so a backward fill that decrements them leaves row starts,
 * without a cursor array. Returns the total.
 */
export function endOffsets(offsets: Int32Array): number {
  const size = offsets.length - 1;
  let sum = 0;
  for (let i = 0; i < size; i++) {
    sum += offsets[i];
    offsets[i] = sum;
  }
  offsets[size] = sum;
  return sum;
}

/**
 * Removes repeated entries from each sorted row in place, rewriting `offsets`. With `copy`
 * (the default) rows that shrank are copied to their used length, freeing the tail; without
 * it the result is a view of `rows` (no second buffer at its peak, for a short-lived set).
 */
export function dropDuplicates(offsets: Int32Array, rows: Int32Array, copy = true): Int32Array {
  const size = offsets.length - 1;
  let w = 0;
  for (let i = 0; i < size; i++) {
    const start = offsets[i];
    const end = offsets[i + 1];
    offsets[i] = w;
    let prev = -1;
    for (let p = start; p < end; p++) {
      const v = rows[p];
      if (v !== prev) rows[w++] = v;
      prev = v;
    }
  }
  offsets[size] = w;
  if (w === rows.length) return rows;
  return copy ? rows.slice(0, w) : rows.subarray(0, w);
}
