/** Resident-memory figures of one measured phase, in bytes. */
export interface RssFigures {
  /** RSS after a full GC, before the phase built anything. */
  baseline: number;
  /** Largest RSS sampled during the phase. */
  peak: number;
  /** The kernel's high-water mark for the whole process (`resourceUsage().maxRSS`). */
  maxRss: number;
  /** Largest V8 heapUsed sampled. */
  peakHeapUsed: number;
  samples: number;
}

/** Runs a full GC when the process was started with `--expose-gc`; returns whether it could. */
export function fullGc(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  gc();
  return true;
}

/**
 * Samples the resident set size of this process. {@link RssSampler.start} collects
 * garbage and records the baseline; call {@link RssSampler.sample} as often as is cheap
 * (once per tick), then {@link RssSampler.figures} at the end.
 */
export class RssSampler {
  private peak = 0;
  private peakHeap = 0;
  private samples = 0;

  private constructor(readonly baseline: number) {}

  /** Collects garbage (needs `--expose-gc`) and records the baseline RSS. */
  static start(): RssSampler {
    if (!fullGc()) process.stderr.write('warning: no global.gc (run node with --expose-gc)\n');
    const sampler = new RssSampler(process.memoryUsage.rss());
    sampler.sample();
    return sampler;
  }

  /** Takes one sample of RSS (and, every call, of the V8 heap). */
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
    const heap = process.memoryUsage().heapUsed;
    if (heap > this.peakHeap) this.peakHeap = heap;
    this.samples++;
  }

  /** Final figures (takes a last sample). */
  figures(): RssFigures {
    this.sample();
    return {
      baseline: this.baseline,
      peak: this.peak,
      maxRss: process.resourceUsage().maxRSS * 1024,
      peakHeapUsed: this.peakHeap,
      samples: this.samples,
    };
  }
}
