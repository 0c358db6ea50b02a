/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions with the most
 * self time, and the most inclusive time (recursion counted once).
 *
 *   npx tsx bench/tools/cpuprofile-summary.ts <file.cpuprofile | dir> [--top 25]
 *
 * Given a directory, summarises its newest `.cpuprofile`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of a V8 CPU profile this tool reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Time attributed to one function (name and source location), in microseconds. */
export interface FunctionTime {
  key: string;
  self: number;
  total: number;
}

function frameKey(f: CallFrame): string {
  let url = f.url;
  if (url.startsWith('file://')) url = relative(process.cwd(), fileURLToPath(url));
  // tsx emits each module on one line: a line number helps only for plain JS.
  const line = f.lineNumber > 0 ? `:${f.lineNumber + 1}` : '';
  const where = url ? ` ${url}${line}` : '';
  return `${f.functionName || '(anonymous)'}${where}`;
}

/** Self and inclusive time per function; the total sampled time is the sum of `self`. */
export function summariseProfile(p: CpuProfile): FunctionTime[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfById = new Map<number, number>();
  for (let s = 0; s < p.samples.length; s++) {
    const dt = p.timeDeltas[s + 1] ?? 0;
    selfById.set(p.samples[s], (selfById.get(p.samples[s]) ?? 0) + dt);
  }
  const out = new Map<string, FunctionTime>();
  const entry = (key: string): FunctionTime => {
    let e = out.get(key);
    if (!e) {
      e = { key, self: 0, total: 0 };
      out.set(key, e);
    }
    return e;
  };
  const root = p.nodes[0];
  // Iterative DFS carrying the keys on the current stack, so recursion counts once.
  const stack: { id: number; keys: Set<string> }[] = [{ id: root.id, keys: new Set() }];
  while (stack.length > 0) {
    const { id, keys } = stack.pop()!;
    const node = byId.get(id)!;
    const key = frameKey(node.callFrame);
    const self = selfById.get(id) ?? 0;
    entry(key).self += self;
    const onStack = new Set(keys).add(key);
    for (const k of onStack) entry(k).total += self;
    for (const c of node.children ?? []) stack.push({ id: c, keys: onStack });
  }
  return [...out.values()];
}

function newest(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return files[0];
}

function print(title: string, rows: FunctionTime[], field: 'self' | 'total', all: number, top: number) {
  const lines = [`\n${title}\n`, `| ${field} ms | % | function |`, '|--:|--:|---|'];
  for (const r of [...rows].sort((a, b) => b[field] - a[field]).slice(0, top))
    lines.push(`| ${(r[field] / 1000).toFixed(1)} | ${((100 * r[field]) / all).toFixed(1)} | ${r.key} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  });
  const target = positionals[0];
  if (!target) throw new Error('usage: cpuprofile-summary <file.cpuprofile | dir> [--top N]');
  const file = statSync(target).isDirectory() ? newest(target) : target;
  const rows = summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const all = rows.reduce((s, r) => s + r.self, 0);
  process.stdout.write(`${file}: ${(all / 1000).toFixed(1)} ms sampled\n`);
  const top = Number(values.top);
  print('Top self time', rows, 'self', all, top);
  print('Top inclusive time', rows, 'total', all, top);
}

main();
