import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recall } from '../../src/memory/index.ts';
import { recallCases, recallStreams } from './recall-cases.ts';

/**
 * Rankings recorded from main 826c228's recall (before recall kept interned terms and a
 * top-k selection): for every case of recall-cases.ts, the ids it returned, best first.
 * Recorded by running exactly the loop below with that version and writing the map as JSON.
 */
const RECORDED = JSON.parse(
  readFileSync(new URL('./recall-rankings.json', import.meta.url), 'utf8'),
) as Record<string, number[]>;

describe('recall rankings against the recorded cases', () => {
  const streams = recallStreams();
  const cases = recallCases();

  it('covers every recorded case, with non-trivial rankings', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(Object.keys(RECORDED).sort());
    expect(Object.values(RECORDED).filter((ids) => ids.length >= 5).length).toBeGreaterThan(100);
  });

  it('returns the recorded ids in the recorded order, twice (second time from kept terms)', () => {
    for (let round = 0; round < 2; round++)
      for (const c of cases)
        expect(
          recall(streams[c.stream], c.query, c.opts).map((e) => e.id),
          c.name,
        ).toEqual(RECORDED[c.name]);
  });
});
