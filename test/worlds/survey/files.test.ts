import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RngStreams } from '../../../src/core/index.ts';
import { loadItems } from '../../../worlds/survey/items.ts';
import { loadPersonas } from '../../../worlds/survey/personas.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('survey-files');

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('survey items files', () => {
  it('reads the same items from CSV, JSON and YAML', () => {
    const csv = file(
      'i.csv',
      'id,kind,text,options,min,max\nq1,likert,Agree?,1=No|2=Maybe|3=Yes,,\nq2,numeric,How many?,,0,10\n',
    );
    const json = file(
      'i.json',
      JSON.stringify([
        { id: 'q1', kind: 'likert', text: 'Agree?', options: ['1=No', '2=Maybe', '3=Yes'] },
        { id: 'q2', kind: 'numeric', text: 'How many?', min: 0, max: 10 },
      ]),
    );
    const yaml = file(
      'i.yaml',
      '- {id: q1, kind: likert, text: Agree?, options: [{id: "1", label: No}, {id: "2", label: Maybe}, {id: "3", label: Yes}]}\n- {id: q2, kind: numeric, text: How many?, min: 0, max: 10}\n',
    );
    const expected = [
      {
        id: 'q1',
        kind: 'likert',
        text: 'Agree?',
        options: [
          { id: '1', label: 'No' },
          { id: '2', label: 'Maybe' },
          { id: '3', label: 'Yes' },
        ],
      },
      { id: 'q2', kind: 'numeric', text: 'How many?', options: [], min: 0, max: 10 },
    ];
    for (const path of [csv, json, yaml]) expect(loadItems(path).items).toEqual(expected);
  });

  it.each([
    ['bad.csv', 'id,kind,text,options\nq1,choice,Pick,a=A|b=B\nq2,choise,Pick,a=A|b=B\n', ':3: kind'],
    [
      'bad.json',
      '[\n  {"id": "q1", "kind": "choice", "text": "Pick", "options": ["a=A", "b=B"]},\n  {"id": "q2", "kind": "choice", "text": "Pick", "options": ["a=A"]}\n]\n',
      ':3: options',
    ],
    ['bad.yaml', '- {id: q1, kind: numeric, text: N, min: 5, max: 1}\n', ':1: min'],
    [
      'dup.yaml',
      '- {id: q1, kind: numeric, text: N}\n- {id: q1, kind: numeric, text: M}\n',
      ':2: item id "q1" is repeated',
    ],
    ['syntax.json', '[\n {"id": "q1",\n ]\n', ':3: not valid JSON'],
  ])('%s is rejected naming the file and line', (name, text, where) => {
    const path = file(name, text);
    expect(() => loadItems(path)).toThrow(`${path}${where}`);
  });
});

describe('survey personas', () => {
  it('samples attributes from marginals, seeded and in the given shares', () => {
    const path = file('m.csv', 'attribute,value,share\ngender,female,0.7\ngender,male,0.3\nage,young,1\n');
    const draw = (seed: number) =>
      loadPersonas(path, 'marginals', 2000, new RngStreams(seed).stream('personas')).personas;
    const a = draw(1);
    expect(draw(1)).toEqual(a);
    expect(draw(2)).not.toEqual(a);
    const female = a.filter((p) => p.attributes.gender === 'female').length / a.length;
    expect(female).toBeGreaterThan(0.66);
    expect(female).toBeLessThan(0.74);
    expect(a.every((p) => p.attributes.age === 'young')).toBe(true);
  });

  it('draws whole rows of a joint table by weight, and cycles rows in rows mode', () => {
    const path = file(
      'j.yaml',
      '- {gender: female, age: old, weight: 1}\n- {gender: male, age: young, weight: 3}\n',
    );
    const joint = loadPersonas(path, 'joint', 2000, new RngStreams(1).stream('personas')).personas;
    const male = joint.filter((p) => p.attributes.gender === 'male');
    expect(male.every((p) => p.attributes.age === 'young')).toBe(true);
    expect(male.length / joint.length).toBeGreaterThan(0.71);
    expect(male.length / joint.length).toBeLessThan(0.79);
    const rows = loadPersonas(path, 'rows', 3, new RngStreams(1).stream('personas')).personas;
    expect(rows.map((p) => p.attributes.gender)).toEqual(['female', 'male', 'female']);
  });

  it('rejects a bad persona row naming the file and line', () => {
    const path = file('p.csv', 'attribute,value,share\ngender,female,0.5\ngender,male,-1\n');
    expect(() => loadPersonas(path, 'marginals', 5, new RngStreams(1).stream('p'))).toThrow(
      `${path}:3: share`,
    );
    const joint = file('pj.json', '[\n {"gender": "f", "weight": "heavy"}\n]');
    expect(() => loadPersonas(joint, 'joint', 5, new RngStreams(1).stream('p'))).toThrow(
      `${joint}:2: weight`,
    );
  });
});
