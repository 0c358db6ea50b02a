// The prompt audit's partial matches: a private text found in part (most of its content
// words, in its order, close together) is reported as a partial finding with the words
// shown, apart from whole-text findings; stop-words alone, scattered words, an observed
// message carrying the text in part, and the caller's own similar text are not leaks.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditPrompts, DEFAULT_PARTIAL_SHARE } from '../../src/metrics/index.ts';
import { LogWriter } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const SECRET = 'The treasure is buried under the old oak tree';
const SECRETS = [{ owner: 0, kind: 'secret', text: SECRET }];
const FILLER = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');

/** A full log in which agent 1 (after observing `heard`, if given) is prompted with each of `prompts`. */
function logOf(prompts: string[], heard?: string): string {
  const path = join(tempDir('audit-partial'), 'log.ndjson');
  const w = LogWriter.create(path, {
    engine: '0.1.0',
    world: { id: 'x', version: '1.0.0', source: { kind: 'builtin' } },
    params: {},
    seed: 1,
    ticks: 3,
    level: 'full',
    size: 2,
  });
  if (heard !== undefined) {
    w.append('send', 1, {
      id: 0,
      from: 0,
      route: 'direct',
      kind: 'say',
      payload: { text: heard },
      deliverAt: 1,
      recipients: 1,
    });
    w.append('observe', 1, { agent: 1, msgs: [0] });
  }
  for (const content of prompts) w.append('llm', 2, { caller: '1', messages: [{ role: 'user', content }] });
  w.append('end', 2, { reason: 'max-ticks' });
  w.close();
  return path;
}

describe('partial matches in the prompt audit', () => {
  it('finds the secret with its last word dropped as a partial leak, with the words it holds', async () => {
    const r = await auditPrompts(
      logOf(['You recall: the treasure is buried under the old oak. What now?']),
      SECRETS,
    );
    expect(r.findings).toEqual([]);
    expect(r.leaks).toEqual([]);
    expect(r.partials).toHaveLength(1);
    expect(r.partials[0]).toMatchObject({
      match: 'partial',
      caller: 1,
      owner: 0,
      allowed: false,
      share: 0.8,
      matched: ['treasure', 'buried', 'old', 'oak'],
    });
  });

  it('finds a secret disguised and reworded in part (homoglyph, one word changed)', async () => {
    const r = await auditPrompts(logOf(['the tr\u0435asure was buried beneath the old oak tree']), SECRETS);
    expect(r.partials.map((f) => f.matched)).toEqual([['treasure', 'buried', 'old', 'oak', 'tree']]);
  });

  it('reports a whole-text match as a finding only, never also as a partial one', async () => {
    const r = await auditPrompts(logOf([`Note: ${SECRET}.`]), SECRETS);
    expect(r.leaks).toHaveLength(1);
    expect(r.partials).toEqual([]);
  });

  it('does not match a prompt that shares only stop-words, or a few content words', async () => {
    const r = await auditPrompts(
      logOf(['The weather is under the usual and the day is old', 'an oak tree in the park']),
      SECRETS,
    );
    expect(r.partials).toEqual([]);
  });

  it("counts a capitalised stop-word as one (the skeleton of I is l), so the caller's own goal explains a match", async () => {
    const secrets = [
      {
        owner: 0,
        kind: 'secret',
        text: 'I am the one who has been leaving anonymous notes in the library books.',
      },
      { owner: 1, kind: 'goal', text: 'discover who has been leaving notes between the library books' },
    ];
    const r = await auditPrompts(logOf(['I know who has been leaving notes in the library books']), secrets);
    expect(r.partials).toEqual([]);
  });

  it('does not match content words scattered far apart in a long prompt', async () => {
    const scattered = `treasure ${FILLER} buried ${FILLER} old ${FILLER} oak ${FILLER} tree`;
    const r = await auditPrompts(logOf([scattered]), SECRETS);
    expect(r.partials).toEqual([]);
  });

  it('allows a partial match the caller observed someone say', async () => {
    const r = await auditPrompts(
      logOf(['someone said the treasure is buried under the old oak'], 'treasure buried under old oak!'),
      SECRETS,
    );
    expect(r.partials).toHaveLength(1);
    expect(r.partials[0]).toMatchObject({ allowed: true, basis: 'observed' });
  });

  it("is not a leak when the caller's own private text explains the words", async () => {
    const own = { owner: 1, kind: 'goal', text: 'dig up the treasure buried under the old oak tree' };
    const r = await auditPrompts(logOf(['Your goal: dig up the treasure buried under the old oak tree']), [
      ...SECRETS,
      own,
    ]);
    expect(r.partials).toEqual([]);
  });

  it('follows the configured share: 0 turns partial matching off, a higher share needs more words', async () => {
    const path = logOf(['the treasure is buried under the old oak']);
    expect((await auditPrompts(path, SECRETS, { partialShare: 0 })).partials).toEqual([]);
    expect((await auditPrompts(path, SECRETS, { partialShare: 0.9 })).partials).toEqual([]);
    expect((await auditPrompts(path, SECRETS, { partialShare: 0.8 })).partials).toHaveLength(1);
    expect(DEFAULT_PARTIAL_SHARE).toBe(0.6);
    await expect(auditPrompts(path, SECRETS, { partialShare: 1.5 })).rejects.toThrow(/between 0 and 1/);
  });
});
