// ES module faces of the bundled CLI's public entries (called by scripts/bundle-cli.mjs).
//
// A user's world file is an ES module, and it imports `grapevine` (or `grapevine/<name>`),
// which must be the running engine: the bundle's CommonJS entry. Node lets an ES module import
// a CommonJS file, but first scans that file's source, and each file it re-exports, for export
// names (cjs-module-lexer): about 40 ms of CPU for the bundle, at every run of a world file.
// `dist/cli/<entry>.mjs` spares the scan: it `require`s the entry (the instance the CLI holds)
// and exports its names, listed here when the bundle is built.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Writes `<entry>.mjs` beside each named CommonJS `<entry>.js` of `outdir`, exporting the
 * names the entry exports at run time.
 * @param {string} outdir the bundle's folder
 * @param {readonly string[]} entries entry file names without extension (`index`, `llm`, ...)
 */
export function writeEsmFacades(outdir, entries) {
  const require = createRequire(join(outdir, 'package.json'));
  for (const entry of entries) {
    const names = Object.keys(require(`./${entry}.js`)).filter((n) => n !== 'default' && n !== '__esModule');
    const exported = names.length > 0 ? `export const { ${names.join(', ')} } = entry;\n` : '';
    writeFileSync(
      join(outdir, `${entry}.mjs`),
      '// The ES module face of a CommonJS entry of the bundle (scripts/esm-facades.mjs).\n' +
        "import { createRequire } from 'node:module';\n\n" +
        `const entry = createRequire(import.meta.url)('./${entry}.js');\n${exported}`,
    );
  }
}
