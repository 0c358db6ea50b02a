import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWorldCode } from '../core/code-frame.ts';

/** One compiler diagnostic, as `file:line:col: error TSnnnn: message`. */
export type TypeProblem = string;

/**
 * The public type declarations of the running engine, as TypeScript `paths`: `grapevine` is
 * dist/src/index.d.ts and `grapevine/<name>` dist/src/public/<name>.d.ts (src/index.ts and
 * src/public/<name>.ts from the sources).
 */
function publicTypes(): Record<string, string[]> {
  const src = fileURLToPath(new URL('../', import.meta.url));
  const ext = existsSync(join(src, 'index.d.ts')) ? '.d.ts' : '.ts';
  return { grapevine: [join(src, `index${ext}`)], 'grapevine/*': [join(src, 'public', `*${ext}`)] };
}

/** The file that stands for the engine's public types (its change invalidates cached checks). */
export function publicTypesEntry(): string {
  return publicTypes().grapevine[0];
}

/** What a type check found, and the world's own source files it read (for a cache). */
export interface TypeCheckResult {
  problems: TypeProblem[];
  /** The files of the world the compiler read: the file and its local imports, not libraries or grapevine. */
  sources: string[];
}

/**
 * Type-checks a user's world file (strict, ESM, NodeNext) with the TypeScript compiler, the
 * bare specifier `grapevine` and its subpaths mapped to this engine's public types, and names
 * the world's own source files the compiler read. The compiler is loaded here only (a check
 * or a cache miss), never at CLI start-up.
 */
export async function typeCheckWorldSources(path: string): Promise<TypeCheckResult> {
  const ts = compiler();
  const options = compilerOptions(ts, path);
  // Most worlds use no Node API: checked first without the global @types packages (Node's
  // are a third of a cold check). Leaving declarations out can only add errors (a missing
  // name or module), so a clean first pass is the answer; any problem is decided by a second
  // pass with every @types package, as the world runs.
  const parsed = new Map<string, import('typescript').SourceFile | undefined>();
  const lean = checkProgram(ts, path, { ...options, types: [] }, parsed);
  return lean.problems.length === 0 ? lean : checkProgram(ts, path, options, parsed);
}

/**
 * The TypeScript compiler, required, not imported: an ESM import of the 9 MB CommonJS
 * compiler first scans its source for named exports, half a CPU-second that require skips.
 */
function compiler(): typeof import('typescript') {
  return createRequire(import.meta.url)('typescript');
}

/**
 * The world's own source files, as {@link typeCheckWorldSources} names them, without the
 * type check (for a world run with `--no-check`): the compiler resolves the file's imports
 * only.
 */
export async function worldSourceFiles(path: string): Promise<string[]> {
  const ts = compiler();
  // a file that imports no path (only packages and grapevine) is a world of one file: its
  // import list, from the compiler's pre-processor, spares building a program
  const pre = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
  const local = [...pre.importedFiles, ...pre.referencedFiles].some((f) => /^[./]/.test(f.fileName));
  if (!local) return [path];
  return ownSources(ts.createProgram([path], { ...compilerOptions(ts, path), types: [] }));
}

function compilerOptions(
  ts: typeof import('typescript'),
  path: string,
): import('typescript').CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    allowJs: true,
    checkJs: /\.[mc]?js$/.test(path),
    resolveJsonModule: true,
    esModuleInterop: true,
    paths: publicTypes(),
    typeRoots: typeRoots(path),
  };
}

/** The files of a program that are the world's: not declarations, libraries or grapevine. */
function ownSources(program: import('typescript').Program): string[] {
  return program
    .getSourceFiles()
    .map((f) => f.fileName)
    .filter((f) => !f.endsWith('.d.ts') && !f.includes('/node_modules/') && isWorldCode(f));
}

/** Checks one program; `parsed` keeps the files it parsed for the next program of the same check. */
function checkProgram(
  ts: typeof import('typescript'),
  path: string,
  options: import('typescript').CompilerOptions,
  parsed: Map<string, import('typescript').SourceFile | undefined>,
): TypeCheckResult {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile;
  host.getSourceFile = (fileName, version, onError) => {
    if (!parsed.has(fileName)) parsed.set(fileName, parse.call(host, fileName, version, onError));
    return parsed.get(fileName);
  };
  const program = ts.createProgram([path], options, host);
  const sources = ownSources(program);
  const problems = diagnosticsOf(ts, program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
      if (!d.file || d.start === undefined) return `error TS${d.code}: ${text}`;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${d.file.fileName}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
    });
  return { problems, sources };
}

/**
 * True for the files whose problems a check reports: every file of the program but the
 * engine's own TypeScript sources. An installed engine gives a world its declarations
 * (dist/src/*.d.ts); only a world inside a checkout (a built-in one, or one importing
 * src/index.ts by path) reaches the sources themselves, which the project's own `tsc`
 * checks: checking them again for each world (~400 modules) would cost more CPU than the
 * world's own files, which are checked against them all the same.
 */
export function reportsProblemsOf(file: string): boolean {
  return file.endsWith('.d.ts') || file.includes('/node_modules/') || isWorldCode(file);
}

/**
 * What `ts.getPreEmitDiagnostics(program)` gives, for the files {@link reportsProblemsOf}
 * names only (the program-wide ones, repeated per file, counted once).
 */
function diagnosticsOf(
  ts: typeof import('typescript'),
  program: import('typescript').Program,
): readonly import('typescript').Diagnostic[] {
  const files = program.getSourceFiles().filter((f) => reportsProblemsOf(f.fileName));
  return ts.sortAndDeduplicateDiagnostics(files.flatMap((f) => ts.getPreEmitDiagnostics(program, f)));
}

/** Where @types packages are looked up: the world's own folders, and this engine's (for node). */
function typeRoots(path: string): string[] {
  const roots: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    roots.push(`${dir}/node_modules/@types`);
    if (dirname(dir) === dir) break;
  }
  try {
    const nodeTypes = createRequire(import.meta.url).resolve('@types/node/package.json');
    roots.push(dirname(dirname(nodeTypes)));
  } catch {
    // @types/node is a development dependency: an installed grapevine may not have it.
  }
  return roots.filter((r) => existsSync(r));
}
