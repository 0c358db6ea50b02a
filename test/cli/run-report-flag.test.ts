import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// `run` imports the report code only when --report asks for it (a rule run's start-up then
// does not parse it): the flag must still write the report beside the log.
describe('grapevine run --report', () => {
  it('writes the HTML report of the run beside its log and prints its path', async () => {
    const dir = tempDir('run-report');
    const log = join(dir, 'r.ndjson');
    const r = await cli(['run', 'rumor', '--set', 'n=300', '--seed', '2', '--out', log, '--report']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const html = join(dir, 'r.report.html');
    expect(r.stdout).toContain(`report ${html} (`);
    const text = readFileSync(html, 'utf8');
    expect(text).toMatch(/^<!doctype html>/i);
    expect(text).toContain('rumor');
  });
});
