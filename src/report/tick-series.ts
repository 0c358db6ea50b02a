/**
 * The per-tick metrics of a log as columns: one array per metric key, aligned with
 * `ticks`; a key missing from a tick line holds null there. Memory grows with ticks ×
 * keys and nothing else.
 */
export class TickSeries {
  /** Simulation time of each `tick` line, in log order. */
  readonly ticks: number[] = [];
  /** Values per metric key. */
  readonly metrics = new Map<string, (number | null)[]>();

  /** Appends one `tick` line's metrics. */
  add(t: number, metrics: Record<string, unknown> | undefined): void {
    const j = this.ticks.length;
    this.ticks.push(t);
    for (const [key, value] of Object.entries(metrics ?? {})) {
      let col = this.metrics.get(key);
      if (!col) {
        col = new Array<number | null>(j).fill(null);
        this.metrics.set(key, col);
      }
      col.push(typeof value === 'number' ? value : null);
    }
    for (const col of this.metrics.values()) if (col.length === j) col.push(null);
  }

  /** Item names: the part before the first `.` of metric keys that have one. */
  items(): string[] {
    const items = new Set<string>();
    for (const key of this.metrics.keys()) {
      const dot = key.indexOf('.');
      if (dot > 0) items.add(key.slice(0, dot));
    }
    return [...items].sort();
  }

  /** The metrics as a plain object (key → values). */
  toJson(): Record<string, (number | null)[]> {
    return Object.fromEntries([...this.metrics.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
