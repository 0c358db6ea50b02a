// A user's world file that brings its own responders for the shipped local LLM server (an
// exported `responders` array, as a built-in world brings them through its CLI contribution):
// `run` without an endpoint, `fork`, and `serve-llm --world FILE` answer its prompts with
// them, a declared field role fills its reply schema, and a malformed export is refused; the
// log's readers (replay, audit) take the file with --world.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { startServeLlm } from '../support/serve-llm-child.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('world-responders');

/** An LLM world: each agent asks the oracle every tick; the oracle's verdict is kept in memory. */
const ORACLE = `import { defineAgentMachine, defineWorld, z } from 'grapevine';
import type { LlmResponder } from 'grapevine/llm';

const asker = defineAgentMachine({
  id: 'asker',
  regions: { r: { initial: 'asking', states: { asking: { tags: ['active'] } } } },
  jsonMemory: ['heard'],
});

const verdictSchema = {
  type: 'object',
  properties: { verdict: { type: 'string' } },
  required: ['verdict'],
};

export const world = defineWorld({
  id: 'oracle',
  version: '1.0.0',
  description: 'each agent asks the oracle a question every tick',
  params: z.object({ n: z.number().int().default(2) }),
  needsLlm: true,
  defaultTicks: 2,
  create: ({ params, llm, model, seed }) => ({
    size: params.n,
    agents: asker,
    turnPolicy: 'simultaneous',
    policy: async (ctx) => {
      const content = \`Oracle question from \${ctx.agent} at tick \${ctx.tick}: rain or sun?\`;
      const schema = ctx.agent === 0 ? { json: { name: 'verdict', schema: verdictSchema } } : {};
      const reply = await llm!.complete({
        caller: String(ctx.agent),
        tick: ctx.tick,
        purpose: 'ask',
        messages: [{ role: 'user', content }],
        params: { model: model as string, seed, ...schema },
      });
      return { memory: { heard: reply.text } };
    },
  }),
});

export const responders: LlmResponder[] = [
  {
    name: 'oracle',
    fieldRoles: { verdict: 'text' },
    respond(kit) {
      const m = /^Oracle question from (\\d+)/.exec(kit.facts.lastUserText);
      if (!m || !kit.freeText) return undefined;
      return kit.finish(\`The oracle answers \${m[1]}: \${kit.dice.pick('weather', ['rain', 'sun'])}.\`);
    },
  },
];
`;

const file = join(dir, 'oracle.ts');
writeFileSync(file, ORACLE);

/** The replies recorded in a log, by caller. */
function replies(log: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const e = JSON.parse(line);
    if (e.type !== 'llm') continue;
    out[e.caller] ??= [];
    out[e.caller].push(e.reply.text);
  }
  return out;
}

describe('a world file with its own responders', { timeout: 180_000 }, () => {
  it('run without an endpoint: the shipped server answers with them; fork, replay and audit read its log', async () => {
    const log = join(dir, 'run.ndjson');
    const run = await cli(['run', './oracle.ts', '--out', log, '--json', '--log', 'full'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const byCaller = replies(log);
    // free text: the world's responder; a JSON reply: the generic filler, `verdict` filled as the line
    expect(byCaller['1']).toEqual([
      expect.stringMatching(/^The oracle answers 1: (rain|sun)\.$/),
      expect.stringMatching(/^The oracle answers 1: (rain|sun)\.$/),
    ]);
    for (const text of byCaller['0']) expect(Object.keys(JSON.parse(text))).toEqual(['verdict']);
    const fork = await cli(
      ['fork', log, '--at', '1', '--seed', '7', '--out', join(dir, 'fork.ndjson'), '--world', './oracle.ts'],
      { cwd: dir },
    );
    expect(fork.code, fork.stderr).toBe(0);
    // the child's own lines (a delta child) hold the live calls after the fork tick
    expect(replies(join(dir, 'fork.ndjson'))['1']).toEqual([
      expect.stringMatching(/^The oracle answers 1: /),
    ]);
    const replay = await cli(['replay', log, '--verify', '--world', './oracle.ts', '--json'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(0);
    // audit reads the log with the world file named too: every prompt checked, none leaks
    const audit = await cli(['audit', log, '--world', './oracle.ts', '--json'], { cwd: dir });
    expect(audit.code, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject({ prompts: 4, leaks: 0, failed: 0 });
    expect(JSON.parse(audit.stdout).logs[0]).toMatchObject({ world: 'oracle', leaks: [] });
  });

  it('serve-llm --world FILE answers with them first, the generic responders after', async () => {
    const server = await startServeLlm(['--world', file]);
    try {
      const ask = async (content: string) => {
        const res = await fetch(`${server.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
        });
        const body = (await res.json()) as { choices: { message: { content: string } }[] };
        return body.choices[0].message.content;
      };
      expect(await ask('Oracle question from 7: rain or sun?')).toMatch(
        /^The oracle answers 7: (rain|sun)\.$/,
      );
      expect(await ask('Name: Ana\nHello there')).toContain('Ana');
    } finally {
      await server.close();
    }
  });

  // --no-check: the files are type-correct (the refusal is the loader's, after any check), so
  // a cold type check of each would test nothing here
  it('a responders export that is not an array, or a responder without respond, exits 2 with one line', async () => {
    writeFileSync(
      join(dir, 'bad-export.ts'),
      ORACLE.replace(/export const responders[\s\S]*$/, 'export const responders = 3;\n'),
    );
    const a = await cli(['run', './bad-export.ts', '--out', 'a.ndjson', '--no-check'], { cwd: dir });
    expect(a.code).toBe(2);
    expect(a.stderr.split('\n')[0]).toBe(
      `grapevine: world file ${join(dir, 'bad-export.ts')}: the export "responders" is not an array`,
    );
    writeFileSync(
      join(dir, 'no-respond.ts'),
      ORACLE.replace(/export const responders[\s\S]*$/, "export const responders = [{ name: 'mute' }];\n"),
    );
    const b = await cli(['run', './no-respond.ts', '--out', 'b.ndjson', '--no-check'], { cwd: dir });
    expect(b.code).toBe(2);
    expect(b.stderr.split('\n')[0]).toBe(
      'grapevine: not a local LLM responder: "mute" (no respond function)',
    );
    expect(b.stderr).toMatch(/\nhint: /);
  });
});
