// What `grapevine validate --world FILE` says about cases a world file hands it: each problem
// named with its case, before any run.
import { describe, expect, it } from 'vitest';
import { type CaseDesign, type ValidationCase, validationCaseProblems } from '../../src/validate/index.ts';
import { world } from '../../worlds/epidemic/index.ts';

const design = (): CaseDesign => ({
  test: 'mean',
  predicted: 1,
  sd: 1,
  bias: 0,
  rule: 'r',
  deviation: { label: 'd', mean: 2, sd: 1 },
  qualify: 1,
});

const good = (id: string, over: Partial<ValidationCase> = {}): ValidationCase => ({
  id,
  model: 'm',
  setting: 's',
  source: 'src',
  quick: true,
  world,
  params: {},
  reads: [],
  design,
  run: async () => [],
  maxReplicates: 10,
  quickReplicates: 5,
  ...over,
});

describe('validationCaseProblems', () => {
  it('accepts well-formed cases', () => {
    expect(validationCaseProblems([good('a'), good('b')])).toEqual([]);
  });

  it('names each problem with its case', () => {
    expect(validationCaseProblems({})).toEqual([expect.stringMatching(/must be an array/)]);
    expect(validationCaseProblems([])).toEqual(['validationCases is empty']);
    expect(validationCaseProblems([good('a'), good('a')])).toEqual(['case "a": the id is used twice']);
    const { run: _run, ...noRun } = good('x');
    expect(validationCaseProblems([noRun])).toEqual(['case "x": "run" must be a function']);
    expect(validationCaseProblems([good('w', { world: {} as never })])).toEqual([
      'case "w": "world" must be a world made by defineWorld',
    ]);
    expect(validationCaseProblems([42])).toEqual(['case 0: not an object']);
  });

  it('checks the design at the case’s own parameters: a throw, a wrong shape, a NaN spread', () => {
    const thrown = good('t', {
      design: () => {
        throw new Error('no gamma');
      },
    });
    expect(validationCaseProblems([thrown])).toEqual(['case "t": design(params) threw: no gamma']);
    const shapeless = good('s', { design: () => ({ predicted: 1 }) as unknown as CaseDesign });
    expect(validationCaseProblems([shapeless])[0]).toMatch(/case "s": design\(params\) must return/);
    const nan = good('n', { design: () => ({ ...design(), sd: Number.NaN }) });
    expect(validationCaseProblems([nan])[0]).toMatch(
      /case "n": design\(params\) cannot be planned: .*finite/,
    );
  });
});
