import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckedOutcome, cliChecked } from '../support/cli-in-process.ts';
import { startServeLlm } from '../support/serve-llm-child.ts';
import { tempDir } from '../support/temp-dir.ts';
import { llmLines } from './e2e-helpers.ts';

// Every invalid LLM flag or variable ends the command at once with exit 2 and one error line
// (and its hint), before any server is started; a run whose LLM calls all failed exits 1
// unless fallbacks were asked for; `serve-llm` timeout faults last as long as asked. The
// commands run in this process (support/cli-in-process.ts: what a command decides; it must leave
// no server, socket or timer open, which in a real process would keep it from exiting); a
// command that hangs fails its case at the test timeout. The fault-duration case spawns
// `serve-llm`: it is about a server process and how it exits on SIGINT.

const EXIT_WITHIN = 40_000;
const dir = tempDir('llm-cli-errors');

type Exit = CheckedOutcome;

/** Exit 2, one `grapevine:` line (plus its hint) matching `message`, no stack trace. */
function expectUsageExit(r: Exit, message: RegExp): void {
  expect(r.code).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^grapevine: /);
  expect(lines[0]).toMatch(message);
  expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const townRun = (out: string, ...extra: string[]) => [
  'run',
  'town-square',
  '--set',
  'agents=5',
  '--ticks',
  '2',
  '--out',
  out,
  '--quiet',
  ...extra,
];

describe('run: an invalid LLM flag or variable exits 2 at once, nothing left behind', () => {
  it.each([
    [['--llm-attempts', '0'], {}, /--llm-attempts must be an integer >= 1, got "0"/],
    [['--llm-timeout-ms', 'abc'], {}, /--llm-timeout-ms must be an integer >= 1, got "abc"/],
    [['--llm-rpm', '-5'], {}, /--llm-rpm must be an integer >= 1, got "-5"/],
    [['--budget-usd', '-1'], {}, /--budget-usd must be a number >= 0, got "-1"/],
    [['--llm-concurrency', '0'], {}, /--llm-concurrency must be an integer >= 1, got "0"/],
    [[], { OPENAI_BASE_URL: '' }, /OPENAI_BASE_URL is set but empty/],
    [[], { GRAPEVINE_LLM_ATTEMPTS: '0' }, /GRAPEVINE_LLM_ATTEMPTS must be an integer >= 1/],
    [
      ['--llm-base-url', 'ftp://x/v1'],
      {},
      /--llm-base-url must be an http or https URL, got "ftp:\/\/x\/v1"/,
    ],
    // the whole value is quoted (the port was dropped), and the hint gives the URL meant
    [['--llm-base-url', 'localhost:11434'], {}, /got "localhost:11434"$/m],
    [['--model', 'ollama:llama3.2'], {}, /needs the package @langchain\/ollama/],
  ] as Array<[string[], Record<string, string>, RegExp]>)('%j %j', async (flags, env, message) => {
    const out = join(
      dir,
      `bad-${flags.join('_') || Object.keys(env).join('_')}.ndjson`.replace(/[:/]/g, '_'),
    );
    expectUsageExit(await cliChecked(townRun(out, ...flags), { env: env }), message);
    expect(existsSync(out)).toBe(false);
  });
});

describe('fork and resume validate the LLM variables before opening anything', () => {
  const parent = join(dir, 'parent.ndjson');
  const stopped = join(dir, 'stopped.ndjson');

  beforeAll(async () => {
    // a complete LLM run, and one stopped by its budget (resumable), on the shipped local server
    const a = await cliChecked(townRun(parent));
    const b = await cliChecked(townRun(stopped, '--ticks', '4', '--budget-tokens', '1'));
    expect([a.code, b.code]).toEqual([0, 0]);
  }, 2 * EXIT_WITHIN);

  it('fork with GRAPEVINE_LLM_ATTEMPTS=0: exit 2, no child log', async () => {
    const out = join(dir, 'child.ndjson');
    const r = await cliChecked(['fork', parent, '--at', '1', '--out', out], {
      env: { GRAPEVINE_LLM_ATTEMPTS: '0' },
    });
    expectUsageExit(r, /GRAPEVINE_LLM_ATTEMPTS must be an integer >= 1, got "0"/);
    expect(existsSync(out)).toBe(false);
  });

  it('fork with --llm-timeout-ms abc and an empty OPENAI_BASE_URL: exit 2', async () => {
    const out = join(dir, 'child2.ndjson');
    expectUsageExit(
      await cliChecked(['fork', parent, '--at', '1', '--out', out, '--llm-timeout-ms', 'abc']),
      /--llm-timeout-ms must be an integer/,
    );
    expectUsageExit(
      await cliChecked(['fork', parent, '--at', '1', '--out', out], { env: { OPENAI_BASE_URL: '' } }),
      /OPENAI_BASE_URL is set but empty/,
    );
  });

  it('a batch on worker threads with --llm-attempts 0: exit 2 at once, no folder of children', async () => {
    const out = join(dir, 'batch');
    const batch = ['--at', '1', '--replicates', '2', '--workers', '2', '--out', out];
    const r = await cliChecked(['fork', parent, ...batch, '--llm-attempts', '0']);
    expectUsageExit(r, /--llm-attempts must be an integer >= 1, got "0"/);
    expect(existsSync(out)).toBe(false);
  });

  it('resume with GRAPEVINE_LLM_ATTEMPTS=0: exit 2, the log untouched, no partial file', async () => {
    const r = await cliChecked(['resume', stopped], { env: { GRAPEVINE_LLM_ATTEMPTS: '0' } });
    expectUsageExit(r, /GRAPEVINE_LLM_ATTEMPTS must be an integer >= 1/);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });
});

describe('a run whose LLM calls all failed', () => {
  // named with a model: without one, the run would stop at asking the server for its models
  const closed = 'http://127.0.0.1:9/v1';
  const town = (out: string, ...extra: string[]) => townRun(out, '--model', 'grapevine-local', ...extra);

  it('exits 1 with one line, and its log records the failures', async () => {
    const out = join(dir, 'all-failed.ndjson');
    const r = await cliChecked(town(out, '--ticks', '1', '--llm-base-url', closed, '--llm-attempts', '1'));
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^grapevine: every LLM call failed \(5 of 5\)/);
    expect(lines[1]).toMatch(/^hint: .*--allow-fallbacks/);
    expect(lines).toHaveLength(2);
    expect(llmLines(out).every((l) => l.reply === null)).toBe(true);
  });

  it('a dead endpoint named without a model: exit 2 within seconds, naming the refused connection', async () => {
    const r = await cliChecked(townRun(join(dir, 'no-model.ndjson'), '--llm-base-url', closed));
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^grapevine: name a model with --model \(the server at http:\/\/127\.0\.0\.1:9\/v1 lists none: GET \/models failed \(ECONNREFUSED\)\)$/,
    );
  });

  it('a dead endpoint: only the first round of calls retries, and the error says the connection was refused', async () => {
    const out = join(dir, 'refused.ndjson');
    const r = await cliChecked(town(out, '--ticks', '2', '--llm-base-url', closed));
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^grapevine: every LLM call failed \(10 of 10\): the endpoint cannot be reached, connection refused \(.*ECONNREFUSED 127\.0\.0\.1:9\)$/,
    );
    expect(lines[1]).toMatch(/^hint: start the server, or fix --llm-base-url/);
    // the first round of calls retries (6 attempts each); every later call fails at its first
    const attempts = llmLines(out).map((l) => {
      const message = (l as unknown as { error: { message: string } }).error.message;
      return Number(/gave up after (\d+) attempts/.exec(message)?.[1] ?? 1);
    });
    expect(attempts).toHaveLength(10);
    expect(attempts.slice(0, 5)).toEqual([6, 6, 6, 6, 6]);
    expect(attempts.slice(5)).toEqual([1, 1, 1, 1, 1]);
  });

  it('exits 0 with a warning when --allow-fallbacks is given', async () => {
    const out = join(dir, 'allowed.ndjson');
    const r = await cliChecked(
      town(out, '--ticks', '1', '--llm-base-url', closed, '--llm-attempts', '1', '--allow-fallbacks'),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: 5 of 5 LLM calls failed/);
  });
});

describe('serve-llm timeout faults', () => {
  it('a bad --fault-timeout-ms exits 2 without serving', async () => {
    expectUsageExit(
      await cliChecked(['serve-llm', '--port', '0', '--fault-timeout-ms', 'abc']),
      /faultTimeoutMs|fault-timeout-ms/,
    );
  });

  it('--fault-timeout-ms drops a timed-out request after that long, not the client timeout', async () => {
    const server = await startServeLlm([
      '--fault-rate',
      '1',
      '--fault-kinds',
      'timeout',
      '--fault-timeout-ms',
      '50',
    ]);
    const { url } = server;
    // no client timeout at all: only the server's fault duration can end this request
    const outcome = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'grapevine-local', messages: [{ role: 'user', content: 'hi' }] }),
    }).then(
      () => 'answered',
      () => 'dropped',
    );
    expect(outcome).toBe('dropped');
    expect(await server.close('SIGINT')).toBe(0);
  });
});
