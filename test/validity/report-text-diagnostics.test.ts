import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textDiagnosticsFigure } from '../../src/cli/text-diagnostics-figure.ts';
import { alienness, distinctN, transcriptFromLog } from '../../src/validity/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const TOWN = 'replays/golden/town-square-v0.1.ndjson.gz';
const dir = tempDir('report-text');

describe('text diagnostics in grapevine report', () => {
  it('tabulates the alienness rates and distinct-n of the log transcript', async () => {
    const turns = await transcriptFromLog(TOWN);
    expect(turns.length).toBeGreaterThan(0);
    const fig = textDiagnosticsFigure(turns);
    const value = (m: string) => fig?.table?.rows.find((r) => r[0] === m)?.[1];
    const a = alienness([turns]);
    expect(value('turns')).toBe(turns.length);
    expect(value('words per turn')).toBeCloseTo(a.wordsPerTurn, 3);
    expect(value('partner repetition')).toBeCloseTo(a.partnerRepetition, 3);
    expect(value('distinct-2')).toBeCloseTo(
      distinctN(
        turns.map((t) => t.text),
        2,
      ),
      3,
    );
    expect(textDiagnosticsFigure([])).toBeUndefined();
  });

  it('report --json of an LLM log carries the text-diagnostics figure', async () => {
    const log = join(dir, 'town.ndjson.gz');
    copyFileSync(TOWN, log);
    const r = await cli(['report', log, '--json'], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const figures = (JSON.parse(r.stdout) as { figures: { id: string; title: string }[] }).figures;
    const text = figures.find((f) => f.id === 'text-diagnostics');
    expect(text?.title).toMatch(/^Text diagnostics: \d+ turns$/);
  });
});
