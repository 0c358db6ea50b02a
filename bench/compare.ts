// `grapevine compare` core on 10,000 synthetic answers: 20 Likert items × 2 groups, 250
// respondents per cell, 1000 bootstrap resamples and 200 split halves per metric and row.
// Run: npx tsx bench/compare.ts [--write DIR]
// --write DIR also writes DIR/answers.csv and DIR/human.csv, the same data as files, to time
// the whole command: npx tsx bench/tools/paired.ts -- node bin/grapevine.mjs compare DIR/answers.csv --human DIR/human.csv
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SeededStream } from '../src/core/index.ts';
import { compareAnswers, type HumanDistribution, type SurveyAnswer } from '../src/validity/index.ts';

const rng = new SeededStream('bench-compare');
const shares = { 1: 0.1, 2: 0.2, 3: 0.4, 4: 0.2, 5: 0.1 };
const human: HumanDistribution[] = [];
const answers: SurveyAnswer[] = [];
for (let i = 0; i < 20; i++)
  for (const g of ['f', 'm']) {
    human.push({
      item: `q${i}`,
      group: { gender: g },
      groupLabel: `gender=${g}`,
      shares,
      n: 500,
      source: 'bench',
    });
    for (let k = 0; k < 250; k++) {
      const u = rng.next();
      const answer = u < 0.2 ? '1' : u < 0.4 ? '2' : u < 0.7 ? '3' : u < 0.9 ? '4' : '5';
      answers.push({
        agent: `a${k}`,
        item: `q${i}`,
        group: { gender: g },
        kind: 'likert',
        answer,
        phase: 'initial',
      });
    }
  }
const t0 = performance.now();
const report = compareAnswers(answers, human, {
  seed: 1,
  ...(process.env.SPLITS ? { splits: Number(process.env.SPLITS) } : {}),
  ...(process.env.REPS ? { replicates: Number(process.env.REPS) } : {}),
});
const ms = performance.now() - t0;
console.log(
  `compare: ${answers.length} answers, ${report.rows.length} rows, ${report.replicates} resamples: ${ms.toFixed(0)} ms`,
);

const at = process.argv.indexOf('--write');
if (at > 0) {
  const dir = process.argv[at + 1];
  mkdirSync(dir, { recursive: true });
  const rows = answers.map((a) => `${a.agent},${a.item},${a.kind},${a.answer},${a.phase},${a.group.gender}`);
  writeFileSync(join(dir, 'answers.csv'), `agent,item,kind,answer,phase,group.gender\n${rows.join('\n')}\n`);
  const refs = human.flatMap((h) =>
    Object.entries(h.shares).map(([o, s]) => `${h.item},${h.groupLabel},${o},${s},${h.n},${h.source}`),
  );
  writeFileSync(join(dir, 'human.csv'), `item,group,option,share,n,source\n${refs.join('\n')}\n`);
}
