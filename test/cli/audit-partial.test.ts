// `grapevine audit` on a real run whose prompt was edited (the hash chain recomputed) to hold
// most of another agent's secret: the partial match is printed with its share and words and
// fails the audit (exit 1); `--partial 0` reports whole texts only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('audit-partial');
const log = join(dir, 'town.ndjson');
const edited = join(dir, 'edited.ndjson');
const SECRET = 'I am the one who has been leaving anonymous notes in the library books.';

beforeAll(async () => {
  const r = await cli([
    'run',
    'town-square',
    '--set',
    'agents=5',
    '--ticks',
    '2',
    '--log',
    'full',
    '--quiet',
    '--out',
    log,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const raw = lines(log);
  // agent 0's secret, in agent 1's first prompt (before it heard anything), its last word dropped
  const own = raw.find((l) => l.includes('"type":"llm"') && l.includes('"caller":"0"')) ?? '';
  expect(own).toContain(SECRET);
  const at = raw.findIndex((l) => l.includes('"type":"llm"') && l.includes('"caller":"1"'));
  const line = JSON.parse(raw[at]);
  line.messages[0].content += '\nOverheard: someone has been leaving anonymous notes in the library.';
  raw[at] = JSON.stringify(line);
  writeFileSync(edited, reChain(raw));
});

describe('audit --partial', () => {
  it('the unedited run has no leak', async () => {
    const r = await cli(['audit', log]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/ partial\b|partial:/);
  });

  it('prints the partial match with its share and words and exits 1', async () => {
    const r = await cli(['audit', edited]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/, 0 leaks, 1 partial$/m);
    expect(r.stdout).toMatch(
      /partial: seq \d+ tick \d+: agent 1's prompt holds \d+% of agent 0's secret ".*library books\.": (\w+ )?leaving anonymous notes library$/m,
    );
    const json = JSON.parse((await cli(['audit', edited, '--json'])).stdout);
    expect(json.logs[0].partialLeaks[0]).toMatchObject({
      match: 'partial',
      caller: 1,
      owner: 0,
      allowed: false,
    });
  });

  it('--partial 0 reports whole texts only; a bad share is a usage error', async () => {
    expect((await cli(['audit', edited, '--partial', '0'])).code).toBe(0);
    const bad = await cli(['audit', edited, '--partial', '60%']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^grapevine: --partial "60%": expected a share between 0 and 1/);
  });
});
