import { fileURLToPath } from 'node:url';

/** A place in a source file, as a stack trace names it. */
export interface CodeFrame {
  file: string;
  line: number;
  column: number;
}

/** The engine's own code: the sources, or the compiled library and CLI bundle. */
function engineRoots(): string[] {
  const here = fileURLToPath(import.meta.url);
  for (const marker of ['/dist/cli/', '/dist/src/', '/src/']) {
    const at = here.replaceAll('\\', '/').lastIndexOf(marker);
    if (at >= 0) {
      const root = here.slice(0, at);
      return [`${root}/src/`, `${root}/dist/src/`, `${root}/dist/cli/`].map((p) => p.replaceAll('\\', '/'));
    }
  }
  return [];
}

const ENGINE = engineRoots();

/** `    at fn (file:///a/b.ts:12:5)` or `    at /a/b.ts:12:5`: the location at the end. */
const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

function parseFrame(line: string): CodeFrame | undefined {
  if (!/^\s*at\s/.test(line)) return undefined;
  const m = FRAME.exec(line);
  if (!m) return undefined;
  let file = m[1];
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  return { file, line: Number(m[2]), column: Number(m[3]) };
}

/** True for code that is neither grapevine's nor a library's nor Node's: a world's (a user's or a built-in one). */
export function isWorldCode(file: string): boolean {
  const f = file.replaceAll('\\', '/');
  if (f.startsWith('node:') || (!f.startsWith('/') && !/^[A-Za-z]:\//.test(f))) return false;
  if (f.includes('/node_modules/')) return false;
  return !ENGINE.some((root) => f.startsWith(root));
}

/**
 * The first frame of a stack trace that is a world's code (see {@link isWorldCode}), or
 * undefined. Source-mapped traces (TypeScript world files under tsx) name the .ts line.
 */
export function firstWorldFrame(stack: string | undefined): CodeFrame | undefined {
  for (const line of (stack ?? '').split('\n')) {
    const frame = parseFrame(line);
    if (frame && isWorldCode(frame.file)) return frame;
  }
  return undefined;
}

/** The first frame of a stack trace whatever its code, or undefined. */
export function firstFrame(stack: string | undefined): CodeFrame | undefined {
  for (const line of (stack ?? '').split('\n')) {
    const frame = parseFrame(line);
    if (frame) return frame;
  }
  return undefined;
}

/** `file:line:column`. */
export function frameText(frame: CodeFrame): string {
  return `${frame.file}:${frame.line}:${frame.column}`;
}
