import { readFileSync } from 'node:fs';
import { LineCodec } from '../../src/replay/format/line-codec.ts';

/** The raw lines of a log file (no trailing empty line). */
export function lines(path: string): string[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

/** Rewrites a log's lines and recomputes its hash chain, as a careful forger would. */
export function reChain(raw: string[]): string {
  const enc = new LineCodec();
  let prev: string | null = null;
  const out: string[] = [];
  for (const line of raw) {
    const { h: _h, ...obj } = JSON.parse(line);
    const e = enc.encode(obj, prev);
    prev = e.chain;
    out.push(e.text);
  }
  return `${out.join('\n')}\n`;
}
