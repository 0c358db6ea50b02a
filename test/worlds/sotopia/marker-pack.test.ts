import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIMENSION_NAMES } from '../../../worlds/sotopia/dimensions.ts';
import { type Episode, findEnvironments, resolveEpisode } from '../../../worlds/sotopia/episode.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import { parseMarkup } from '../../../worlds/sotopia/markup.ts';
import { sotopiaParams } from '../../../worlds/sotopia/params.ts';
import {
  FORMATS,
  PACK_FILES,
  PIECES,
  PROMPTS,
  type Slots,
} from '../../../worlds/sotopia/protocols/pack-files.ts';
import { zhou2024Protocol } from '../../../worlds/sotopia/protocols/zhou2024.ts';
import type { RelationshipLevel } from '../../../worlds/sotopia/records.ts';
import { ACTION_TYPES, type ActionType, turnRecord } from '../../../worlds/sotopia/transcript.ts';
import type { Mode } from '../../../worlds/sotopia/views.ts';
import { tempDir } from '../../support/temp-dir.ts';

// A pack whose every file is a marker text: each text names itself and keeps its
// placeholders between markers. A prompt made with it must hold markers and data only (the
// episode's names, profiles, scenario, goals, turns, the action types, the reply's JSON
// Schema): any other letter is a word the code wrote.

const mark = (name: string, slots: Slots) =>
  `⟦${name}⟧${[...slots.required, ...slots.optional].map((p, i) => `{${p}}⟦${name}:${i + 1}⟧`).join('')}`;

function markerPack(): string {
  const dir = join(tempDir('grapevine-sotopia-markers-'), 'pack');
  mkdirSync(dir);
  for (const [name, slots] of Object.entries({ ...PROMPTS, ...FORMATS }))
    writeFileSync(join(dir, `${name}.txt`), mark(name, slots));
  const pieces = Object.fromEntries(Object.entries(PIECES).map(([name, slots]) => [name, mark(name, slots)]));
  pieces['agents-list'] = '⟦agents-list⟧{json}⟦agents-list:1⟧{python}⟦agents-list:2⟧';
  writeFileSync(join(dir, 'pieces.json'), JSON.stringify(pieces));
  const rubric = Object.fromEntries(
    DIMENSION_NAMES.map((d) => [d, { steps: `⟦${d}:steps⟧`, bands: `⟦${d}:bands⟧` }]),
  );
  writeFileSync(join(dir, 'rubric.json'), JSON.stringify(rubric));
  const fields = {
    turn: { description: '⟦turn⟧', action_type: '⟦action_type⟧', argument: '⟦argument⟧' },
    evaluation: { name: '⟦evaluation⟧', name_plus: '⟦evaluation-plus⟧' },
    script: { description: '⟦script⟧', turns: '⟦turns⟧', speaker: '⟦speaker⟧' },
    score_range: true,
  };
  writeFileSync(join(dir, 'reply-fields.json'), JSON.stringify(fields));
  return dir;
}

const data = importSotopia();
const TURNS: [number, ActionType, string][] = [
  [0, 'speak', 'Hello there, did nothing happen?'],
  [1, 'non-verbal communication', 'waves'],
  [0, 'none', ''],
  [1, 'action', 'opens the window'],
  [0, 'leave', ''],
];

function episode(source: string, level: RelationshipLevel): Episode {
  const env = findEnvironments(data, `source:${source}`)[0];
  return { ...resolveEpisode(data, env.env_id, 0), relationship: level };
}

/** Every prompt of an episode in every mode, for one way of reading replies. */
function allPrompts(ep: Episode, pack: string, parsing: string): string[] {
  const t = TURNS.map(([seat, action, text], k) =>
    turnRecord(k + 1, seat, ep.names[seat], { action, argument: text }, false),
  );
  const p = (mode: Mode, rubric = 'basic') =>
    zhou2024Protocol({
      episode: ep,
      params: sotopiaParams.parse({ mode, rubric, parsing, templates: pack }),
      model: 'm',
      seed: 1,
    });
  const out: string[] = [];
  for (let k = 0; k <= t.length; k++) {
    out.push(
      ...p('agents')
        .characterTurn(k % 2, t.slice(0, k))
        .messages.map((m) => m.content),
    );
    out.push(
      ...p('mindreaders')
        .characterTurn(k % 2, t.slice(0, k))
        .messages.map((m) => m.content),
    );
    out.push(
      ...p('playwright')
        .playwrightTurn(k % 2, t.slice(0, k))
        .messages.map((m) => m.content),
    );
  }
  const script = p('script');
  out.push(script.script().messages[0].content);
  for (const rubric of ['basic', 'plus']) {
    out.push(p('agents', rubric).judge(t, 'leave')!.messages[0].content);
    out.push(p('script', rubric).judge(t, 'script-end')!.messages[0].content);
  }
  for (const call of [
    p('agents').characterTurn(0, []),
    script.script(),
    p('playwright').playwrightTurn(0, []),
  ]) {
    const repair = call.reading.sotopia?.repair;
    if (repair)
      out.push(
        script
          .repairPrompt(repair, 'BAD REPLY')
          .map((m) => m.content)
          .join(''),
      );
  }
  return out;
}

/** The data a prompt may hold: the episode's texts, the turns, the action types, the bad reply. */
function dataOf(ep: Episode): string[] {
  const texts = [
    ...ep.names,
    ...ep.agents.flatMap((a) => [
      a.first_name,
      a.last_name,
      a.occupation.toLowerCase(),
      a.gender_pronoun,
      a.public_info,
      a.personality_and_values,
      a.secret,
    ]),
    ...[ep.env.scenario, ...ep.env.agent_goals].flatMap((x) => parseMarkup(x).map((s) => s.text)),
    ...TURNS.map(([, , text]) => text),
    ...ACTION_TYPES,
    'BAD REPLY',
  ];
  // a text as the context shows it: Sotopia's cleaning takes the spaces that start its lines
  const lines = texts.flatMap((x) => x.split('\n').map((l) => l.trim()));
  return [...new Set([...texts, ...lines].filter((x) => x.trim() !== ''))].sort(
    (a, b) => b.length - a.length,
  );
}

/** A prompt without its reply schemas (checked: valid JSON whose every description is a marker). */
function withoutSchemas(prompt: string): string {
  return prompt.replace(/⟦format-json⟧([\s\S]*?)⟦format-json:1⟧/g, (_all, json: string) => {
    const schema = JSON.parse(json);
    const descriptions = JSON.stringify(schema).match(/"description":"[^"]*"/g) ?? [];
    expect(descriptions.length).toBeGreaterThan(0);
    for (const d of descriptions) expect(d).toMatch(/^"description":"(⟦[^⟧]+⟧)+"$/);
    return '';
  });
}

describe('a pack of markers: prompts of markers and data only', () => {
  const pack = markerPack();
  it('the marker pack replaces every file of the pack', () => {
    expect(PACK_FILES.length).toBe(Object.keys({ ...PROMPTS, ...FORMATS }).length + 3);
  });

  it.each([
    ['mutual_friends', 'stranger', 'sotopia'],
    ['craigslist_bargains', 'acquaintance', 'sotopia'],
    ['social_chemistry', 'family_member', 'reask'],
  ] as const)('%s, %s, parsing %s: no word from code', (source, level, parsing) => {
    const ep = episode(source, level);
    const items = dataOf(ep);
    const prompts = allPrompts(ep, pack, parsing);
    expect(prompts.length).toBeGreaterThan(15);
    for (const prompt of prompts) {
      expect(prompt).toMatch(/^⟦/);
      let rest = withoutSchemas(prompt).replace(/⟦[^⟧]*⟧/g, ' ');
      for (const item of items) rest = rest.split(item).join(' ');
      // what is left: white space, digits (turn numbers, ages) and the punctuation of data (the names' JSON and Python lists)
      expect(rest, prompt.slice(0, 300)).toMatch(/^[^A-Za-z]*$/);
    }
  });
});
