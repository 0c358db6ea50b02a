import { SeededStream } from '../../src/core/index.ts';
import {
  emptyMemory,
  type MemoryKind,
  type MemoryStreamState,
  type NewMemory,
  type RecallOptions,
  remember,
} from '../../src/memory/index.ts';
import { fillerMemories, streamOf } from './fixtures.ts';

/** One recall whose ranking was recorded (ids, best first) from the implementation of main 826c228. */
export interface RecallCase {
  name: string;
  stream: string;
  query: string | string[];
  opts: Omit<RecallOptions, 'relevance'>;
}

const NAMES = [
  'Ada Moreno',
  'Bram Olsen',
  'Chidi Okafor',
  'Dana Kim',
  'Hana Sato',
  'Nia Campbell',
  'Pia Lund',
];
const SUFFIX = ['', ' II', ' III'];
const OPENERS = ['Thanks,', 'Good point,', 'I hear you,', 'Between us:', 'Word is:', 'Have you heard?'];
const CLAIMS = [
  'The mayor is quietly selling the town park to a hotel developer.',
  'The old mill bridge will close for repairs next Monday.',
  'The bakery secret recipe was stolen!',
  'Nobody saw the ferry leave on time today.',
  'My aim is simple: to stop false stories from scaring older customers.',
  'I am trying to know about every road change before the next route.',
  'URGENT: the river is rising near the school.',
];

/** Town-square-like lines: long, repetitive, quoting one another; `perTick` heard per tick. */
function townMemories(ticks: number, perTick: number, seed: string): NewMemory[][] {
  const rng = new SeededStream(seed);
  const name = (): string => `${rng.pick(NAMES)}${rng.pick(SUFFIX)}`;
  return Array.from({ length: ticks }, (_, t) =>
    Array.from({ length: perTick }, (): NewMemory => {
      const speaker = name();
      const quoted =
        rng.int(3) === 0 ? ` ${rng.pick(OPENERS)} ${rng.pick(CLAIMS)} (heard from ${name()})` : '';
      const kind: MemoryKind =
        rng.int(10) === 0 ? 'action' : rng.int(20) === 0 ? 'reflection' : 'observation';
      return {
        t: t + 1,
        kind,
        text: `${speaker}: ${name()}, ${rng.pick(OPENERS)} It's ${speaker}.${quoted} ${rng.pick(CLAIMS)}`,
        source: speaker,
        ...(rng.int(4) === 0 ? { importance: 1 + rng.int(10) } : {}),
      };
    }),
  );
}

/** The streams the cases recall from, built the same way on every call. */
export function recallStreams(): Record<string, MemoryStreamState> {
  let town = emptyMemory();
  for (const batch of townMemories(40, 25, 'town')) town = remember(town, batch, { maxEntries: 500 });
  let small = emptyMemory();
  for (const batch of townMemories(3, 4, 'small')) small = remember(small, batch);
  return {
    filler: streamOf(fillerMemories(300, 'rec-filler')),
    capped: streamOf(fillerMemories(400, 'rec-capped'), 120),
    town,
    small,
    empty: emptyMemory(),
  };
}

const QUERIES: (string | string[])[] = [
  'Alice painted the old mill',
  'the',
  '',
  ['Dana Kim: the mayor is selling the park', 'Bram Olsen II: ferry timetable', 'bridge repairs Monday!'],
  ['Thanks, Nia Campbell III.', '', 'secret recipe bakery'],
  'river school urgent rising',
  ['Gus Gus bakery', 'market'],
];

const OPTIONS: Omit<RecallOptions, 'relevance'>[] = [
  {},
  { k: 24, now: 40 },
  { k: Number.POSITIVE_INFINITY },
  { k: 7, weights: { relevance: 3, recency: 0.25 } },
  { k: 5, decay: 0.9, now: 400 },
  { k: 12, kinds: ['action', 'reflection'] },
  { k: 10, weights: { relevance: 0 } },
  { k: 0 },
  { k: 3, weights: { recency: 0, importance: 0 } },
];

/** Every (stream, query, options) combination. */
export function recallCases(): RecallCase[] {
  const out: RecallCase[] = [];
  for (const stream of Object.keys(recallStreams()))
    QUERIES.forEach((query, q) => {
      OPTIONS.forEach((opts, o) => {
        out.push({ name: `${stream} q${q} o${o}`, stream, query, opts });
      });
    });
  return out;
}
