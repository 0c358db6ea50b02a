// The package's public entries (docs/ARCHITECTURE.md): `grapevine` is src/index.ts, what a
// world file needs; `grapevine/<name>` is src/public/<name>.ts. Each entry names every export
// (as xstate's packages/core/src/index.ts does), no name is public twice, and package.json
// exports exactly these entries.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SUBPATHS = readdirSync('src/public')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .sort();
const ENTRIES: Record<string, string> = {
  '.': 'src/index.ts',
  ...Object.fromEntries(SUBPATHS.map((name) => [`./${name}`, `src/public/${name}.ts`])),
};

/** The statements of a file that export something, comments left out. */
function exportStatements(path: string): string[] {
  const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return [...code.matchAll(/^export\b[^;]*;/gm)].map((m) => m[0]);
}

/** The names an entry exports (each `export { a, type B } from '…'`). */
function exportedNames(path: string): string[] {
  return exportStatements(path).flatMap((statement) => {
    const list = /^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'[^']+'\s*;$/.exec(statement)?.[1];
    if (list === undefined) throw new Error(`${path}: not a named re-export: ${statement}`);
    return list
      .split(',')
      .map((s) => s.trim().replace(/^type\s+/, ''))
      .filter(Boolean)
      .map((s) => s.split(/\s+as\s+/).pop() as string);
  });
}

describe('the public entries', () => {
  it('are grapevine and its subpaths analysis, cli, llm, replay and sweep', () => {
    expect(SUBPATHS).toEqual(['analysis', 'cli', 'llm', 'replay', 'sweep']);
  });

  it('each name every export: only `export { … } from` and `export type { … } from`, no export *', () => {
    for (const path of Object.values(ENTRIES)) {
      const statements = exportStatements(path);
      expect(statements.length, path).toBeGreaterThan(0);
      for (const s of statements)
        expect(s, path).toMatch(/^export\s+(type\s+)?\{[^}]*\}\s*from\s*'[^']+'\s*;$/);
    }
  });

  it('export each name from one entry only', () => {
    const where = new Map<string, string[]>();
    for (const path of Object.values(ENTRIES))
      for (const name of exportedNames(path)) where.set(name, [...(where.get(name) ?? []), path]);
    expect([...where].filter(([, paths]) => paths.length > 1)).toEqual([]);
  });

  it("keep the world author's entry to at most 80 names", () => {
    const names = exportedNames('src/index.ts');
    expect(names.length).toBeLessThanOrEqual(80);
    // what a world file needs is there; the CLI's glue and the LLM stack are not
    expect(names).toEqual(expect.arrayContaining(['defineWorld', 'defineAgentMachine', 'z', 'runWorld']));
    for (const internal of [
      'PROCESS_OUTPUT',
      'positiveIntFlag',
      'Progress',
      'RecordingPort',
      'ParentTailPort',
    ])
      expect(names).not.toContain(internal);
  });

  it('are what package.json exports, each with its compiled file and types', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    const { './package.json': self, ...entries } = pkg.exports;
    expect(self).toBe('./package.json');
    const compiled = (src: string) => `./dist/${src.replace(/\.ts$/, '')}`;
    expect(entries).toEqual(
      Object.fromEntries(
        Object.entries(ENTRIES).map(([sub, src]) => [
          sub,
          { types: `${compiled(src)}.d.ts`, default: `${compiled(src)}.js` },
        ]),
      ),
    );
  });
});
