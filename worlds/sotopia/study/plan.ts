import { isAbsolute, resolve } from 'node:path';
import { ConfigError, sha256Hex, UsageError } from '../../../src/index.ts';
import { findEnvironments } from '../episode.ts';
import { DEFAULT_DATA_DIR, importSotopia, type SotopiaData } from '../importer.ts';
import {
  CONTRACTS,
  type Contract,
  PARSINGS,
  type Parsing,
  PROTOCOLS,
  type Protocol,
  RUBRICS,
} from '../params.ts';
import { loadPack } from '../protocols/pack.ts';
import type { SotopiaEnvironment } from '../records.ts';
import { MODES, type Mode } from '../views.ts';

/**
 * Everything that decides a study's episodes and their logs (written to `DIR/study.json`;
 * a restarted study must have the same). Endpoint, concurrency and output flags are not
 * part of it: they change how fast a study runs, not what it computes.
 */
export interface StudyConfig {
  kind: 'sotopia';
  /** Modes in the order given (paired differences are later − earlier). */
  modes: Mode[];
  /** The scenario selector as given (`all`, codenames, env_ids, `source:<source>`, comma-separated). */
  scenarios: string;
  /** Pairs 0..pairs-1 of every scenario. */
  pairs: number;
  /** Study seed: every episode seed derives from it (see {@link episodeSeed}). */
  seed: number;
  /** The world's `maxTurns`. */
  maxTurns: number;
  /** The characters' (and writers') model. */
  model: string;
  /** The judge's model (`--judge-model`; `same` gives the agents' model). */
  judgeModel: string;
  /** True when `--judge-model same` chose the agents' own model as the judge. */
  judgeSame: boolean;
  /** The world's protocol (zhou2024 unless `--protocol`). */
  protocol: Protocol;
  /** The judge's rubric (zhou2024). */
  rubric: 'basic' | 'plus';
  /** zhou2024: how replies are read (`sotopia` by default; `reask` is grapevine's named option). */
  parsing?: Parsing;
  /** zhou2024 with `parsing: sotopia`: the repair call's model ('' = the model of the call repaired). */
  repairModel?: string;
  /**
   * zhou2024: the reply contract (`sotopia` unless `--contract`). A study made before
   * contracts existed has none in its `study.json`: its episodes follow `grapevine`.
   */
  contract?: Contract;
  /** `--models A,B`: two models in the two seats, each (scenario, pair) run in both seatings; null: `model` in both. */
  models: [string, string] | null;
  /** `--templates DIR` (absolute), '' for the shipped pack. */
  templates: string;
  /** sha256 of each pack file the study reads (a changed template is another study). */
  templateHashes: Record<string, string>;
  /** Sotopia data directory: '' for the shipped copy, else an absolute path. */
  data: string;
}

/** One (scenario, pair, mode) of a study. */
export interface PlannedEpisode {
  envId: string;
  codename: string;
  source: string;
  pair: number;
  mode: Mode;
  /** The episode's run seed: the same for every mode of a (scenario, pair). */
  seed: number;
  /** Log path relative to the study directory: `episodes/<codename>-<envid8>-p<pair>-<mode>.ndjson`. */
  log: string;
  /** `<envId>/p<pair>`: the unit over which modes are paired. */
  unit: string;
  /** With `--models A,B`: `ab` (A in seat 0) or `ba` (swapped), and the seats' models. */
  order?: 'ab' | 'ba';
  seatModels?: [string, string];
}

/** A study's scenarios and episodes, in a fixed order (scenarios in data-file order, then pair, then mode). */
export interface StudyPlan {
  config: StudyConfig;
  environments: SotopiaEnvironment[];
  episodes: PlannedEpisode[];
}

/** Raw study options as the command line gives them. */
export interface StudyInput {
  modes?: string;
  scenarios?: string;
  pairs?: string | number;
  seed?: string | number;
  maxTurns?: string | number;
  model: string;
  judgeModel?: string;
  data?: string;
  protocol?: string;
  rubric?: string;
  parsing?: string;
  repairModel?: string;
  contract?: string;
  models?: string;
  templates?: string;
}

/** `--judge-model`: required (a study's judge is chosen, never defaulted); `same` = the agents' model. */
export function parseJudgeModel(
  raw: string | undefined,
  model: string,
): { judgeModel: string; judgeSame: boolean } {
  const name = raw?.trim();
  if (!name)
    throw new UsageError('study sotopia needs --judge-model NAME', {
      hint: "Zhou et al. judge with a fixed strong model (GPT-4) apart from the models under test; give one, or --judge-model same to judge with the agents' model",
    });
  return name === 'same' ? { judgeModel: model, judgeSame: true } : { judgeModel: name, judgeSame: false };
}

/** `--models A,B`: two distinct model names, or null. */
export function parseSeatModels(raw: string | undefined): [string, string] | null {
  if (raw === undefined) return null;
  const items = raw.split(',').map((m) => m.trim());
  if (items.length !== 2 || items.some((m) => m === '') || items[0] === items[1])
    throw new UsageError(`--models needs two different model names A,B, got ${JSON.stringify(raw)}`, {
      hint: 'e.g. --models gpt-4o,gpt-4o-mini (each (scenario, pair) then runs with A in seat 0 and again with B)',
    });
  return [items[0], items[1]];
}

function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

function intOption(
  name: string,
  raw: string | number | undefined,
  fallback: number,
  min: number,
  max?: number,
) {
  if (raw === undefined) return fallback;
  const text = String(raw).trim();
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max))
    throw new UsageError(
      `--${name} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}, got ${JSON.stringify(String(raw))}`,
    );
  return n;
}

/** Parses `--modes`: known, distinct modes. */
export function parseModes(raw: string | undefined): Mode[] {
  const items = (raw ?? 'agents,mindreaders,script')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (items.length === 0)
    throw new UsageError('--modes is empty', { hint: `give some of: ${MODES.join(', ')}` });
  for (const m of items)
    if (!(MODES as readonly string[]).includes(m))
      throw new UsageError(`unknown mode "${m}" in --modes`, { hint: `modes: ${MODES.join(', ')}` });
  const dup = items.find((m, k) => items.indexOf(m) !== k);
  if (dup) throw new UsageError(`mode "${dup}" is given twice in --modes`);
  return items as Mode[];
}

/**
 * The scenarios of a selector: `all`, or a comma-separated list of codenames (a codename
 * shared by several scenarios selects them all), env_ids and `source:<source>`; in
 * data-file order, each once. An item that matches nothing is a {@link ConfigError}.
 */
export function selectScenarios(data: SotopiaData, selector: string): SotopiaEnvironment[] {
  const items = selector
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0)
    throw new UsageError('--scenarios is empty', {
      hint: 'give all, codenames, env_ids or source:<source>, comma-separated',
    });
  const chosen = new Set<string>();
  for (const item of items) {
    const found = findEnvironments(data, item);
    if (found.length === 0) {
      const sources = [...new Set(data.environments.map((e) => e.source))].sort();
      throw new ConfigError(`no Sotopia scenario matches "${item}" in --scenarios`, {
        hint: item.startsWith('source:')
          ? `sources: ${sources.join(', ')}`
          : `give all, a codename (e.g. ${data.environments
              .slice(0, 2)
              .map((e) => e.codename)
              .join(', ')}), an env_id, or source:<source> (${sources.join(', ')})`,
      });
    }
    for (const e of found) chosen.add(e.env_id);
  }
  return data.environments.filter((e) => chosen.has(e.env_id));
}

/** The episode seed of (study seed, scenario, pair): the first 48 bits of a sha256, the same for every mode. */
export function episodeSeed(studySeed: number, envId: string, pair: number): number {
  return Number.parseInt(sha256Hex(`grapevine|study|sotopia|${studySeed}|${envId}|${pair}`).slice(0, 12), 16);
}

/** Episode attempts at most (the first run and its regenerations; the world's `regenerate` default). */
export const EPISODE_ATTEMPTS = 3;

/**
 * How many times a study runs an episode whose judgement failed: zhou2024 with `parsing:
 * sotopia` reruns the whole episode, as Sotopia's examples/fix_missing_episodes.py does for
 * episodes without valid rewards (up to {@link EPISODE_ATTEMPTS}); otherwise once (the world
 * re-asks the judge on the same transcript).
 */
export function episodeAttempts(config: Pick<StudyConfig, 'protocol' | 'parsing'>): number {
  return config.protocol === 'zhou2024' && config.parsing === 'sotopia' ? EPISODE_ATTEMPTS : 1;
}

/** The log of attempt `k` of an episode: the planned log for k = 1, else `<log>.attemptK.ndjson`. */
export function attemptLog(log: string, k: number): string {
  return k === 1 ? log : log.replace(/\.ndjson$/, `.attempt${k}.ndjson`);
}

/** The seed of attempt `k`: the episode's seed for k = 1, else one derived from it and k. */
export function attemptSeed(seed: number, k: number): number {
  if (k === 1) return seed;
  return Number.parseInt(sha256Hex(`grapevine|study|sotopia|attempt|${seed}|${k}`).slice(0, 12), 16);
}

/** `episodes/<codename>-<envid8>-p<pair>-<mode>.ndjson`; envid8 is the last 8 characters of the env_id (its first are a shared ULID timestamp). */
export function episodeLog(
  env: Pick<SotopiaEnvironment, 'codename' | 'env_id'>,
  pair: number,
  mode: Mode,
): string {
  const code = env.codename.replace(/[^\w.-]+/g, '_');
  return `episodes/${code}-${env.env_id.slice(-8)}-p${pair}-${mode}.ndjson`;
}

/** Validates the raw options into a study config (no file is touched). */
export function resolveStudyConfig(input: StudyInput): { config: StudyConfig; data: SotopiaData } {
  const modes = parseModes(input.modes);
  const seed = intOption('seed', input.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const maxTurns = intOption('max-turns', input.maxTurns, 20, 1, 500);
  const dataDir = input.data ? resolve(input.data) : '';
  const data = importSotopia(dataDir || DEFAULT_DATA_DIR);
  if (data.environments.length === 0)
    throw new ConfigError(`no Sotopia scenario could be imported from ${data.dir}`, {
      hint: 'check the directory with: grapevine sotopia import --check --data DIR',
    });
  const scenarios = (input.scenarios ?? 'all').trim();
  const environments = selectScenarios(data, scenarios);
  const most = Math.min(...environments.map((e) => data.combos.filter((c) => c.env_id === e.env_id).length));
  if (most < 1)
    throw new ConfigError('a selected scenario has no character pairs', {
      hint: 'check the data with: grapevine sotopia import --check',
    });
  const pairs = intOption('pairs', input.pairs, 1, 1, most);
  const model = input.model;
  const { judgeModel, judgeSame } = parseJudgeModel(input.judgeModel, model);
  const protocol = oneOf('protocol', input.protocol, PROTOCOLS, 'zhou2024');
  const rubric = oneOf('rubric', input.rubric, RUBRICS, 'basic');
  const parsing = oneOf('parsing', input.parsing, PARSINGS, 'sotopia');
  const repairModel = input.repairModel?.trim() ?? '';
  const models = parseSeatModels(input.models);
  const templates = input.templates ? resolve(input.templates) : '';
  const contract = oneOf('contract', input.contract, CONTRACTS, 'sotopia');
  const templateHashes =
    protocol === 'zhou2024' ? loadPack({ dir: templates, contract, repairs: true }).hashes : {};
  return {
    config: {
      kind: 'sotopia',
      modes,
      scenarios,
      pairs,
      seed,
      maxTurns,
      model,
      judgeModel,
      judgeSame,
      protocol,
      rubric,
      ...(protocol === 'zhou2024' && { parsing, repairModel, contract }),
      models,
      templates,
      templateHashes,
      data: dataDir && isAbsolute(dataDir) ? dataDir : '',
    },
    data,
  };
}

/** Every (scenario, pair, mode) of a config, in plan order. */
export function planStudy(config: StudyConfig, data: SotopiaData): StudyPlan {
  const environments = selectScenarios(data, config.scenarios);
  const episodes: PlannedEpisode[] = [];
  for (const env of environments)
    for (let pair = 0; pair < config.pairs; pair++) {
      const seed = episodeSeed(config.seed, env.env_id, pair);
      for (const mode of config.modes)
        for (const order of config.models ? (['ab', 'ba'] as const) : [undefined]) {
          const base = { envId: env.env_id, codename: env.codename, source: env.source, pair, mode, seed };
          const unit = `${env.env_id}/p${pair}`;
          if (!order || !config.models) episodes.push({ ...base, log: episodeLog(env, pair, mode), unit });
          else {
            const [a, b] = config.models;
            const seatModels: [string, string] = order === 'ab' ? [a, b] : [b, a];
            const log = episodeLog(env, pair, mode).replace(/\.ndjson$/, `-${order}.ndjson`);
            episodes.push({ ...base, log, unit, order, seatModels });
          }
        }
    }
  return { config, environments, episodes };
}

/** The world parameters of an episode (what its log header records, defaults aside). */
export function episodeParams(config: StudyConfig, ep: PlannedEpisode): Record<string, unknown> {
  return {
    scenario: ep.envId,
    pair: ep.pair,
    mode: ep.mode,
    maxTurns: config.maxTurns,
    judgeModel: config.judgeModel,
    protocol: config.protocol,
    ...(config.protocol === 'zhou2024' && { rubric: config.rubric }),
    ...(config.parsing && { parsing: config.parsing }),
    ...(config.repairModel && { repairModel: config.repairModel }),
    ...(config.protocol === 'zhou2024' && { contract: config.contract ?? 'grapevine' }),
    ...(config.templates ? { templates: config.templates } : {}),
    ...(ep.seatModels ? { seatModels: ep.seatModels } : {}),
    ...(config.data ? { data: config.data } : {}),
  };
}
