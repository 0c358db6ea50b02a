import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportError } from '../../../src/cli/report-error.ts';
import { sotopiaImportCommand } from '../../../worlds/sotopia/cli/import-command.ts';
import {
  formatAgeConstraint,
  parseAgeConstraint,
  parseAgentConstraint,
  parseOccupationConstraint,
} from '../../../worlds/sotopia/constraints.ts';
import { DEFAULT_DATA_DIR, importSotopia } from '../../../worlds/sotopia/importer.ts';
import { SOTOPIA_FILES } from '../../../worlds/sotopia/records.ts';
import {
  agentToRow,
  comboToRow,
  environmentToRow,
  relationshipToRow,
} from '../../../worlds/sotopia/serialize.ts';
import { tempDir } from '../../support/temp-dir.ts';

const data = importSotopia();

function originalRows(file: string): Record<string, unknown>[] {
  return readFileSync(join(DEFAULT_DATA_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** The published row with its list items trimmed: the importer's one documented change. */
function trimmedLists(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x.trim() : x)) : v;
  return out;
}

function capture(): { out: string; err: string; io: { out(s: string): void; err(s: string): void } } {
  const c = {
    out: '',
    err: '',
    io: {
      out: (s: string) => {
        c.out += s;
      },
      err: (s: string) => {
        c.err += s;
      },
    },
  };
  return c;
}

function copyData(): string {
  const dir = tempDir('sotopia');
  for (const { file } of Object.values(SOTOPIA_FILES))
    copyFileSync(join(DEFAULT_DATA_DIR, file), join(dir, file));
  return dir;
}

describe('importing the shipped Sotopia profiles', () => {
  it('imports 40 agents, 90 environments, 120 relationships, 450 combos, no bad row', () => {
    expect(data.counts).toEqual({ agents: 40, environments: 90, relationships: 120, combos: 450 });
    expect(data.issues).toEqual([]);
    expect(Object.keys(data.files).sort()).toEqual(
      Object.values(SOTOPIA_FILES)
        .map((f) => f.file)
        .sort(),
    );
  });

  it('round-trips every record to its published row (list items trimmed)', () => {
    const cases = [
      [SOTOPIA_FILES.agents.file, data.agents.map(agentToRow)],
      [SOTOPIA_FILES.environments.file, data.environments.map(environmentToRow)],
      [SOTOPIA_FILES.relationships.file, data.relationships.map(relationshipToRow)],
      [SOTOPIA_FILES.combos.file, data.combos.map(comboToRow)],
    ] as const;
    for (const [file, rows] of cases) {
      const originals = originalRows(file);
      expect(rows.length).toBe(originals.length);
      rows.forEach((row, k) => {
        expect(JSON.stringify(row)).toBe(JSON.stringify(trimmedLists(originals[k])));
      });
    }
  });

  it('handles the quirks: levels, stray spaces, constraint strings, nan/none', () => {
    const amara = data.agents.find((a) => a.first_name === 'Amara')!;
    expect(amara.moral_values).toEqual(['Care', 'Fairness']);
    expect(amara.schwartz_personal_values).toEqual(['Universalism', 'Benevolence', 'Self-Direction']);
    const env = data.environments.find((e) => e.codename === 'divide_things')!;
    expect(env.relationship).toBe('friend');
    expect(env.age_constraint).toEqual([
      [18, 70],
      [18, 70],
    ]);
    expect(env.occupation_constraint).toBeNull();
    expect(env.agent_constraint).toBeNull();
    const actors = data.environments.filter((e) => e.occupation_constraint !== null);
    expect(actors.map((e) => e.occupation_constraint)).toEqual([['actor', 'actor']]);
    const levels = new Set(data.relationships.map((r) => r.relationship));
    expect([...levels].sort()).toEqual(
      ['acquaintance', 'family_member', 'friend', 'know_by_name', 'romantic_relationship', 'stranger'].sort(),
    );
  });

  it.each([
    [
      '[(18, 70), (21, 65)]',
      [
        [18, 70],
        [21, 65],
      ],
    ],
    ['[]', []],
    ['nan', null],
    ['none', null],
    ['', null],
  ])('age constraint %j', (text, value) => {
    expect(parseAgeConstraint(text)).toEqual(value);
  });

  it('constraint strings round-trip and bad ones throw', () => {
    expect(formatAgeConstraint(parseAgeConstraint('[(18, 70), (18, 70)]'))).toBe('[(18, 70), (18, 70)]');
    expect(parseOccupationConstraint('[\'actor\', "actor"]')).toEqual(['actor', 'actor']);
    expect(parseAgentConstraint('[[a1, a2], [b1]]')).toEqual([['a1', 'a2'], ['b1']]);
    expect(() => parseAgeConstraint('[(70, 18)]')).toThrow(/min > max/);
    expect(() => parseAgeConstraint('(18, 70)')).toThrow();
    expect(() => parseOccupationConstraint('actor')).toThrow();
  });
});

describe('bad rows', () => {
  it('a broken line is reported with file and line; the other rows are imported', () => {
    const dir = copyData();
    const file = join(dir, SOTOPIA_FILES.agents.file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2].slice(0, 40); // line 3: cut JSON
    lines[4] = lines[4].replace('"age": ', '"age": "old", "x": '); // line 5: ill-typed age
    writeFileSync(file, lines.join('\n'));
    const envFile = join(dir, SOTOPIA_FILES.environments.file);
    const envLines = readFileSync(envFile, 'utf8').split('\n');
    envLines[0] = envLines[0].replace('"relationship": "3"', '"relationship": "7"');
    envLines[2] = envLines[2].replace('<extra_info>', '<extra_inf>'); // line 3: unknown tag
    writeFileSync(envFile, envLines.join('\n'));
    const d = importSotopia(dir);
    const where = d.issues.map((i) => `${i.file}:${i.line}`);
    expect(where.slice(0, 4)).toEqual([`${file}:3`, `${file}:5`, `${envFile}:1`, `${envFile}:3`]);
    expect(d.issues[0].error).toMatch(/not JSON/);
    expect(d.issues[1].error).toMatch(/^age: /);
    expect(d.issues[2].error).toMatch(/relationship "7"/);
    expect(d.issues[3].error).toMatch(/markup/);
    expect(d.counts.agents).toBe(38);
    expect(d.counts.environments).toBe(88);
    // rows that name a skipped agent or scenario are reported too, never dropped silently
    const dependants = d.issues.slice(4);
    expect(dependants.length).toBeGreaterThan(0);
    for (const i of dependants) expect(i.error).toMatch(/is not among the imported/);
    expect(d.counts.combos + d.issues.filter((i) => i.file.endsWith('combo_storages.jsonl')).length).toBe(
      450,
    );
  });

  it('`sotopia import --check` prints the counts and exits 0 on the shipped data', () => {
    const c = capture();
    expect(sotopiaImportCommand({ check: true }, c.io)).toBe(0);
    expect(c.out).toMatch(/agents\s+40\n/);
    expect(c.out).toMatch(/environments\s+90\n/);
    expect(c.out).toMatch(/relationships\s+120\n/);
    expect(c.out).toMatch(/combos\s+450\n/);
    expect(c.err).toBe('');
    const j = capture();
    expect(sotopiaImportCommand({ check: true, json: true }, j.io)).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({
      counts: { agents: 40, environments: 90, relationships: 120, combos: 450 },
      ok: true,
    });
  });

  it('`--data DIR` with a bad row: file:line printed, exit 2', () => {
    const dir = copyData();
    const file = join(dir, SOTOPIA_FILES.relationships.file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[9] = '{"relationship_id": 3}';
    writeFileSync(file, lines.join('\n'));
    const c = capture();
    expect(sotopiaImportCommand({ check: true, data: dir }, c.io)).toBe(2);
    expect(c.out).toContain(`bad row ${file}:10: `);
    expect(c.out).toMatch(/relationships\s+119\n/);
    expect(c.err).toMatch(/^grapevine: 1 bad row skipped/);
  });

  it('a missing data directory or a missing --check is a one-line error (exit 2)', () => {
    const c = capture();
    const run = (f: () => number) => {
      try {
        return f();
      } catch (err) {
        return reportError(err, c.io.err);
      }
    };
    expect(run(() => sotopiaImportCommand({ check: true, data: '/no/such/dir' }, c.io))).toBe(2);
    expect(c.err).toMatch(
      /^grapevine: cannot read Sotopia file \/no\/such\/dir\/agent_profiles\.jsonl\nhint: /,
    );
    expect(run(() => sotopiaImportCommand({}, c.io))).toBe(2);
    expect(c.err).toContain('needs --check');
  });
});
