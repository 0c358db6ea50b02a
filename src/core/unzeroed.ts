/**
 * Typed arrays whose contents start unspecified, for storage written before it is read (a
 * column of rows `0..length` that grows). `new Int32Array(n)` asks the C allocator for zeroed
 * memory; once glibc's malloc has raised its mmap threshold (it does when a large block is
 * freed), a block of a few MB comes from its heap, where calloc clears it with memset unless
 * it is fresh: every page of the capacity touched at once, ~13 us each on the 2-vCPU VMs when
 * new, used or not (`perf record -e minor-faults` showed it for the bus's batches). An
 * unzeroed block (`Buffer.allocUnsafeSlow`, plain malloc) is touched only where it is written.
 */
type TypedCtor<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  BYTES_PER_ELEMENT: number;
};

/** A typed array of `length` elements of `ctor`, not zeroed: read nothing before writing it. */
export function unzeroed<T extends Int32Array | Float64Array | Uint8Array>(
  ctor: TypedCtor<T>,
  length: number,
): T {
  const bytes = Buffer.allocUnsafeSlow(length * ctor.BYTES_PER_ELEMENT);
  // malloc aligns to 16 bytes and an unpooled Buffer starts its ArrayBuffer: offset 0
  return new ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, length);
}
