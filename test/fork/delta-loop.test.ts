// A delta child names its parent in its header, which anyone can rewrite (the chain is not
// keyed): a child naming itself, two children naming each other, or a chain of children too
// long must each end in one short error line, not in a deep recursion (issue 30, item 11).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCodec } from '../../src/replay/format/line-codec.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('delta-loop');

/** The child's file with its header naming `parent` (path beside it, and absolute) as its parent, the chain of the header redone. */
function renamed(child: string, parent: string, out: string, ownLines = true): void {
  const [first, ...rest] = readFileSync(child, 'utf8').trimEnd().split('\n');
  const { h: _h, ...header } = JSON.parse(first) as Record<string, unknown> & {
    delta: { parent: Record<string, string> };
  };
  header.delta.parent = { ...header.delta.parent, path: basename(parent), absolute: parent };
  const line = new LineCodec().encode(header, null).text;
  writeFileSync(out, `${[line, ...(ownLines ? rest : [])].join('\n')}\n`);
}

async function refused(path: string): Promise<string> {
  const r = await cliChecked(['replay', path, '--verify']);
  expect(r.code).toBe(2);
  const [error, hint, ...more] = r.stderr.trimEnd().split('\n');
  expect(more).toEqual([]);
  expect(hint).toMatch(/^hint: /);
  expect(error.length).toBeLessThan(600);
  return error;
}

describe('a delta child whose parents loop', () => {
  it('naming itself, or two naming each other, or too many generations: one short line', async () => {
    const parent = join(dir, 'parent.ndjson');
    const run = ['run', 'rumor', '--set', 'n=300', '--seed', '2', '--ticks', '20', '--snapshot-every', '5'];
    expect((await cliChecked([...run, '--out', parent, '--quiet'])).code).toBe(0);
    const child = join(dir, 'child.ndjson');
    expect(
      (await cliChecked(['fork', parent, '--at', '10', '--seed', '4', '--out', child, '--quiet'])).code,
    ).toBe(0);
    expect((await cliChecked(['replay', child, '--verify', '--quiet'])).code).toBe(0);

    const self = join(dir, 'self.ndjson');
    renamed(child, self, self);
    expect(await refused(self)).toMatch(
      /self\.ndjson names .*self\.ndjson as its parent, which is the log itself: its delta parents form a loop$/,
    );

    const [a, b] = [join(dir, 'a.ndjson'), join(dir, 'b.ndjson')];
    renamed(child, b, a);
    renamed(child, a, b);
    expect(await refused(a)).toMatch(/which is one of its own descendants: its delta parents form a loop$/);

    // 80 generations of headers, each naming the one before (the first names the real parent)
    const gens = Array.from({ length: 80 }, (_, k) => join(dir, `gen-${k}.ndjson`));
    gens.forEach((g, k) => {
      renamed(child, k === 0 ? parent : gens[k - 1], g, false);
    });
    expect(await refused(gens[79])).toMatch(/gen-\d+\.ndjson has more than 64 generations of delta parents$/);
  }, 300_000);
});
