/** Lists shorter than this are sorted by the built-in sort, longer ones by radix passes. */
const SHORT_LIST = 256;

/**
 * Sorting lists of agent indices in time proportional to the list, not to the
 * population: a least-significant-digit radix sort over as few digits as the population
 * size needs (two passes up to 4 Mi agents), into buffers kept between calls.
 */
export class AgentSorter {
  private a = new Int32Array(0);
  private b = new Int32Array(0);
  private readonly counts = new Int32Array(1 << 11);

  /**
   * The agents of `list` (each in [0, size)) in ascending order, as a view into a buffer of
   * this sorter: valid until its next call. `list` is left as it was.
   */
  sorted(list: Int32Array, size: number): Int32Array {
    const n = list.length;
    if (this.a.length < n) {
      // room for the whole population (up to 16 Mi agents) at once: buffers grown again later,
      // in callers V8 had optimised by then, made it throw them away and compile them again
      this.a = new Int32Array(Math.max(n, 2 * this.a.length, Math.min(size, 1 << 24)));
      this.b = new Int32Array(this.a.length);
    }
    let src = this.a.subarray(0, n);
    src.set(list);
    // Short lists take the built-in sort, called on every list (on none of a long one): a
    // call first met after V8 optimised its callers (the list short again at a run's end)
    // made V8 throw those callers away and compile them again.
    const short = n < SHORT_LIST;
    src.subarray(0, short ? n : 0).sort();
    if (short) return src;
    let dst = this.b.subarray(0, n);
    const bits = Math.max(1, Math.ceil(Math.log2(Math.max(2, size))));
    const passes = Math.ceil(bits / 11);
    const width = Math.ceil(bits / passes);
    for (let p = 0, shift = 0; p < passes; p++, shift += width) {
      this.pass(src, dst, shift, (1 << width) - 1);
      const t = src;
      src = dst;
      dst = t;
    }
    return src;
  }

  /** One stable counting pass on the digit `(x >>> shift) & mask`. */
  private pass(src: Int32Array, dst: Int32Array, shift: number, mask: number): void {
    const counts = this.counts;
    counts.fill(0, 0, mask + 1);
    for (let i = 0; i < src.length; i++) counts[(src[i] >>> shift) & mask]++;
    let sum = 0;
    for (let d = 0; d <= mask; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < src.length; i++) {
      const x = src[i];
      dst[counts[(x >>> shift) & mask]++] = x;
    }
  }
}
