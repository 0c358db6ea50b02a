import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { alienness, speaksAs, type Turn, transcriptFromLog } from '../../src/validity/index.ts';

const WORDS = 'market bread ferry mayor park notes library river bakery council morning hotel'.split(' ');

/** Seeded synthetic talk with planted markers: every `every`-th turn of A is an AI-identity turn. */
function plantedTranscript(seed: string, turns: number): Turn[] {
  const rng = new SeededStream(seed);
  const out: Turn[] = [];
  for (let i = 0; i < turns; i++) {
    const speaker = i % 2 ? 'Bo Lind' : 'Ana Ruiz';
    let text = Array.from({ length: 10 }, () => rng.pick(WORDS)).join(' ');
    if (i % 10 === 0) text = `As an AI, I think ${text}`;
    if (i % 10 === 1) text = `Thank you! I appreciate that. ${text}`;
    if (i % 10 === 3) text = `I am Ana Ruiz and ${text}`; // Bo speaks as Ana
    out.push({ speaker, text });
  }
  return out;
}

describe('alienness', () => {
  it('recovers planted AI-identity, politeness and identity-confusion rates', () => {
    const r = alienness([plantedTranscript('a', 200), plantedTranscript('b', 200)]);
    expect(r.turns).toBe(400);
    expect(r.aiIdentity).toBeCloseTo(0.1, 12);
    expect(r.identityConfusion).toBeCloseTo(0.1, 12);
    expect(r.refusal).toBe(0);
    expect(r.rules.selfRepetition).toMatch(/trigrams/);
    // 2 markers in every tenth turn; turns have 10 random words plus the planted ones
    expect(r.politenessPer100Words).toBeGreaterThan(1);
    expect(r.politenessPer100Words).toBeLessThan(2);
  });

  it('measures repetition of oneself and of the partner exactly', () => {
    const t: Turn[] = [
      { speaker: 'A', text: 'one two three four' },
      { speaker: 'B', text: 'one two three five' }, // 1 of 2 trigrams is A's
      { speaker: 'A', text: 'two three four six' }, // 1 of 2 trigrams is A's own, none is B's
    ];
    const r = alienness([t]);
    expect(r.partnerRepetition).toBeCloseTo((0 + 0.5 + 0) / 3, 12);
    expect(r.selfRepetition).toBeCloseTo((0 + 0 + 0.5) / 3, 12);
    expect(r.wordsPerTurn).toBe(4);
  });

  it('recognises a speaker naming itself as another', () => {
    expect(speaksAs('Hi, I am Bo Lind.', 'Bo Lind')).toBe(true);
    expect(speaksAs('Bo Lind: sure', 'Bo Lind')).toBe(true);
    expect(speaksAs('Bo Lind here. Hello', 'Bo Lind')).toBe(true);
    expect(speaksAs('I met Bo Lind today', 'Bo Lind')).toBe(false);
  });

  it('runs on the transcripts of a Sotopia episode and a town-square log', async () => {
    const sotopia = await transcriptFromLog('replays/golden/sotopia-playwright-v0.1.ndjson.gz');
    expect(sotopia.length).toBeGreaterThan(0);
    expect(sotopia.every((t) => !t.speaker.startsWith('agent '))).toBe(true);
    const town = await transcriptFromLog('replays/golden/town-square-v0.1.ndjson.gz');
    expect(town.length).toBeGreaterThan(10);
    expect(town.map((t) => t.speaker)).toContain('Ada Moreno');
    for (const r of [alienness([sotopia]), alienness([town])]) {
      expect(r.wordsPerTurn).toBeGreaterThan(0);
      for (const x of [r.selfRepetition, r.partnerRepetition, r.aiIdentity, r.identityConfusion])
        expect(x >= 0 && x <= 1).toBe(true);
    }
    // the local server's town-square replies quote what others said ("Word is: ...")
    expect(alienness([town]).partnerRepetition).toBeGreaterThan(0);
  });
});
