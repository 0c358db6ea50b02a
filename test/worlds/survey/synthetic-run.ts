import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../../src/llm-server/index.ts';
import { type SurveyAnswer, surveyAnswersFromLog } from '../../../worlds/survey/answers.ts';
import { surveyResponders } from '../../../worlds/survey/responders.ts';
import { cli } from '../../support/cli.ts';
import { tempDir } from '../../support/temp-dir.ts';

/** A survey run through the CLI against the local server's synthetic respondents. */
export interface SyntheticSurveyRun {
  /** The run's own temporary folder (items, truth, log). */
  readonly dir: string;
  /** The run's replay log. */
  readonly log: string;
  /** The synthetic server the run called; closed by `close()` or by a test that replays offline. */
  readonly server: LocalLlmServer;
  /** The answers read back from the log. */
  readonly answers: SurveyAnswer[];
  /** Closes the server (the folder goes with the test file's other temporary folders). */
  close(): Promise<void>;
}

/**
 * Writes the items and the planted truth (YAML lines) into a fresh folder, starts the local
 * server in synthetic mode on that truth, runs `grapevine run survey` with `--set` pairs
 * against it, and reads the answers back from the log. Fails the calling hook on a non-zero exit.
 */
export async function syntheticSurveyRun(
  name: string,
  items: readonly string[],
  truth: readonly string[],
  set: readonly string[],
): Promise<SyntheticSurveyRun> {
  const dir = tempDir(`survey-${name}`);
  const itemsFile = join(dir, 'items.yaml');
  const truthFile = join(dir, 'truth.yaml');
  const log = join(dir, 'run.ndjson');
  writeFileSync(itemsFile, items.join('\n'));
  writeFileSync(truthFile, truth.join('\n'));
  const server = await startLocalLlmServer({
    port: 0,
    responders: surveyResponders({ synthetic: truthFile }),
  });
  const sets = [`items=${itemsFile}`, ...set].flatMap((s) => ['--set', s]);
  const r = await cli(['run', 'survey', ...sets, '--out', log, '--llm-base-url', server.url, '--json'], {
    timeoutMs: 120_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const answers = await surveyAnswersFromLog(log);
  return { dir, log, server, answers, close: () => server.close() };
}

/** Closes the run's server, then replays its log with `--verify`: no model is reachable. */
export async function expectOfflineReplay(run: SyntheticSurveyRun): Promise<void> {
  await run.server.close();
  const r = await cli(['replay', run.log, '--verify', '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).verified).toBe(true);
}
