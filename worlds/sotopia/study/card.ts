import { canonicalJson, type Json, sha256Hex } from '../../../src/index.ts';
import { DIMENSION_NAMES, DIMENSIONS } from '../dimensions.ts';
import type { SotopiaData } from '../importer.ts';
import { world as sotopiaWorld } from '../index.ts';
import type { SotopiaEnvironment } from '../records.ts';
import { ACTION_TYPES } from '../transcript.ts';
import type { Mode } from '../views.ts';
import { DEAL_RULE, MENTION_RULE } from './detectors.ts';
import { episodeAttempts, type StudyConfig } from './plan.ts';
import { renderTextDiagnostics, type StudyTextDiagnostics } from './text-diagnostics.ts';

/** Who writes the turns in a mode and what the writer knows. */
export const MODE_CARDS: Record<Mode, { simulation: string; writer: string; informationAsymmetry: string }> =
  {
    agents: {
      simulation: 'multi-agent',
      writer: 'each character is its own LLM agent: one call per turn',
      informationAsymmetry:
        "non-omniscient (zhou2024): a character sees its own profile, goal and secret and of its partner only the profile fields its relationship level allows (never the partner's goal or secret; between strangers, as in Sotopia, neither profile is shown)",
    },
    mindreaders: {
      simulation: 'multi-agent',
      writer: 'each character is its own LLM agent: one call per turn',
      informationAsymmetry:
        "removed on purpose (zhou2024: Sotopia's omniscient background): the partner's full profile, goal and secret and the environment-only notes (declared to the prompt audit)",
    },
    script: {
      simulation: 'single-agent (one omniscient writer)',
      writer: 'one LLM call writes the whole episode for both characters',
      informationAsymmetry:
        "none: the writer reads the environment's background (zhou2024): both characters in full (profiles, goals, secrets) and the environment-only notes",
    },
    playwright: {
      simulation: 'single-agent (one omniscient writer)',
      writer: 'an omniscient writer produces one turn per call, for each character in turn',
      informationAsymmetry:
        "none: the writer reads the environment's background (zhou2024): both characters in full (profiles, goals, secrets) and the environment-only notes",
    },
  };

/** The shipped data's provenance (worlds/sotopia/data/NOTICE.md). */
export const SHIPPED_PROVENANCE = {
  repository: 'sotopia-lab/sotopia-space',
  commit: '12c13d8',
  folder: 'profiles/',
  licence: 'Apache-2.0',
  citation:
    'Zhou, Zhu, Mathur, Zhang, Yu, Qi, Morency, Bisk, Fried, Neubig, Sap. SOTOPIA: Interactive Evaluation for Social Intelligence in Language Agents. ICLR 2024. arXiv:2310.11667',
};

/** The simulation card of a study (`card.json`). */
export interface SimulationCard {
  format: 'grapevine-simulation-card/1';
  title: string;
  proposedBy: string;
  simulation: {
    kind: string;
    world: string;
    modes: { mode: Mode; simulation: string; writer: string; informationAsymmetry: string }[];
  };
  agents: { type: string; model: string; temperature: number; actions: string[] };
  judge: { model: string; temperature: number; dimensions: { name: string; min: number; max: number }[] };
  interaction: { turnTaking: string; maxTurns: number; maxIdle: number; ends: string };
  /** The protocol and every option in force. */
  protocol: {
    name: string;
    source: string;
    options: Record<string, Json>;
    /** The template pack: where it was read, its files' sha256 and the pack's own (sha256 of their canonical JSON). */
    templates: { dir: string; wording: string; pack: string; sha256: Record<string, string> };
  };
  memory: string;
  profiles: {
    source: string;
    dataDir: string;
    provenance: typeof SHIPPED_PROVENANCE | { note: string };
    files: Record<string, string>;
    counts: SotopiaData['counts'];
    partnerView: string;
  };
  scenarios: { selector: string; count: number; bySource: Record<string, number>; pairsPerScenario: number };
  design: { episodes: number; seed: number; episodeSeeds: string; paired: string; logs: string };
  metrics: string[];
  /** Alienness and free-text diversity of the episodes, per mode (added once the episodes are read). */
  textDiagnostics?: StudyTextDiagnostics;
  intendedUse: string[];
  caveats: string[];
}

/** What the characters are and how their replies are read, under the study's protocol and contract. */
function agentType(config: StudyConfig): string {
  if (config.protocol !== 'zhou2024')
    return 'LLM (chat completions, JSON replies {action, argument}); invalid replies re-asked twice, then a recorded "none"';
  const fields =
    (config.contract ?? 'grapevine') === 'sotopia'
      ? "Sotopia's AgentAction {action_type, argument}"
      : '{action, argument} (world 2.0-2.1)';
  return config.parsing === 'sotopia'
    ? `LLM (chat completions, JSON replies ${fields} read as Sotopia's code reads them; an unreadable reply gets one repair call, then a recorded "none")`
    : `LLM (chat completions, JSON replies ${fields}); invalid replies re-asked twice, then a recorded "none"`;
}

/** Builds the card from the study config (deterministic: no clock, no host data). */
export function buildCard(
  config: StudyConfig,
  data: SotopiaData,
  environments: readonly SotopiaEnvironment[],
): SimulationCard {
  const kinds = new Set(config.modes.map((m) => MODE_CARDS[m].simulation));
  const bySource: Record<string, number> = {};
  for (const e of [...environments].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)))
    bySource[e.source] = (bySource[e.source] ?? 0) + 1;
  const defaults = sotopiaWorld.params.parse({});
  const zhou = config.protocol === 'zhou2024';
  return {
    format: 'grapevine-simulation-card/1',
    title: 'Sotopia information-asymmetry study',
    proposedBy:
      'Zhou, Su, Eisape, Kim, Sap. Is this the real life? Is this just fantasy? The misleading success of simulating social interactions with LLMs. arXiv:2403.05020, 2024',
    simulation: {
      kind: kinds.size === 1 ? [...kinds][0] : 'multi-agent and single-agent, compared',
      world: `${sotopiaWorld.id}@${sotopiaWorld.version} (grapevine worlds/sotopia): dyadic episodes, two characters and a scenario`,
      modes: config.modes.map((mode) => ({ mode, ...MODE_CARDS[mode] })),
    },
    agents: {
      type: agentType(config),
      model: config.model,
      temperature: defaults.temperature,
      actions: [...ACTION_TYPES],
    },
    judge: {
      model: config.judgeModel,
      temperature: 0,
      dimensions: DIMENSION_NAMES.map((name) => ({
        name,
        min: DIMENSIONS[name].min,
        max: DIMENSIONS[name].max,
      })),
    },
    interaction: {
      turnTaking: 'round-robin (agents, mindreaders, playwright); one written script (script)',
      maxTurns: config.maxTurns,
      maxIdle: defaults.maxIdle,
      ends: zhou
        ? `when the turn number exceeds ${config.maxTurns} (at most ${config.maxTurns + 1} turns), when a character leaves, or when the trailing run of "none" actions (the waiting seat's counted, as in Sotopia) exceeds ${defaults.maxIdle}; a script is kept as written`
        : `after ${config.maxTurns} turns, when a character leaves, or after more than ${defaults.maxIdle} consecutive "none" turns`,
    },
    protocol: {
      name: config.protocol,
      source: zhou
        ? 'sotopia-lab/sotopia tag agent_vs_storyteller_v1 (commit bfc2554): generate.py, evaluators.py, parallel.py, server.py, generate.gin; see docs/SOTOPIA.md'
        : 'grapevine world sotopia 1.x (before the zhou2024 protocol)',
      options: {
        judgeModel: config.judgeModel,
        judgeSame: config.judgeSame,
        rubric: zhou ? config.rubric : 'grapevine-v0 one-line dimensions',
        models: config.models,
        temperature: defaults.temperature,
        writerTemperature: zhou ? defaults.writerTemperature : defaults.temperature,
        judgeTemperature: 0,
        regenerate: zhou ? defaults.regenerate : 1,
        episodeAttempts: episodeAttempts(config),
        parsing: zhou ? (config.parsing ?? 'reask') : 'grapevine-v0 JSON re-asks',
        contract: zhou ? (config.contract ?? 'grapevine') : null,
        repairModel:
          zhou && config.parsing === 'sotopia'
            ? config.repairModel || 'the model of the call repaired'
            : null,
        maxTurns: config.maxTurns,
        maxIdle: defaults.maxIdle,
      },
      templates: {
        dir: config.templates || 'shipped (worlds/sotopia/templates)',
        wording: !zhou
          ? 'grapevine-v0: fixed prompts (no pack)'
          : config.templates
            ? "the given pack (e.g. Sotopia's own words, from `grapevine sotopia templates`)"
            : "the project's own words: Sotopia's information and rules, not its wording",
        pack: sha256Hex(canonicalJson(config.templateHashes)),
        sha256: config.templateHashes,
      },
    },
    memory:
      'within an episode, every prompt holds the transcript so far; nothing carries over between episodes; no retrieval, reflection or summarisation',
    profiles: {
      source:
        'Sotopia public profiles (characters with Big Five, values, decision style, secret; scenarios with private goals; relationships)',
      dataDir: config.data || 'shipped copy (worlds/sotopia/data)',
      provenance: config.data
        ? { note: `a user-supplied copy; see its own notice (file hashes below)` }
        : SHIPPED_PROVENANCE,
      files: Object.fromEntries(Object.entries(data.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      counts: data.counts,
      partnerView:
        'by relationship level: stranger / know by name: name only; acquaintance: + public profile; friend, romantic, family: + personality and values (never the secret)',
    },
    scenarios: {
      selector: config.scenarios,
      count: environments.length,
      bySource,
      pairsPerScenario: config.pairs,
    },
    design: {
      episodes: environments.length * config.pairs * config.modes.length,
      seed: config.seed,
      episodeSeeds:
        'per (scenario, pair): the first 48 bits of sha256("grapevine|study|sotopia|<seed>|<env_id>|<pair>"), shared by all modes',
      paired: 'every mode plays the same (scenario, pair) units with the same episode seed',
      logs: 'one hash-chained --log full replay log per episode (episodes/*.ndjson); grapevine replay --verify reruns each offline; grapevine audit checks every prompt for leaks',
    },
    metrics: [
      `Sotopia-EVAL by an LLM judge, per character: ${DIMENSION_NAMES.join(', ')}; overall = their unweighted mean`,
      'paired differences between modes over the same (scenario, pair), paired t-test',
      'words per turn',
      `deal rate (craigslist_bargains): ${DEAL_RULE}`,
      `first mention of the shared friend (mutual_friends): ${MENTION_RULE}`,
    ],
    intendedUse: [
      'comparing how information asymmetry (who knows whose goal and secret) changes simulated social interactions and their judged outcomes',
      'checking claims made with omniscient (script) simulations against non-omniscient agents on the same scenarios and characters',
      'reproducible, auditable pipelines: every prompt and reply is in a replayable log',
    ],
    caveats: [
      'scores come from an LLM judge: biased towards fluent text and towards its own model family; not a human rating',
      'omniscient modes (script, playwright) tend to look more successful (goal completion, naturalness) than agents that must infer each other: do not read their success as evidence about real interactions (Zhou et al. 2024)',
      'the characters are fictional Sotopia profiles: no real people; scenarios are short, English, and mostly US-centric',
      'the deal and first-mention detectors are keyword rules on the transcript, not judgements',
      'with the shipped local server (model grapevine-local) the replies are deterministic stand-ins, not a language model: such figures test the pipeline, not social behaviour',
      'small n: standard errors and p-values are per dimension with no correction for multiple comparisons',
    ],
  };
}

/** card.md: the card as Markdown. */
export function renderCardMarkdown(card: SimulationCard): string {
  const li = (xs: readonly string[]) => xs.map((x) => `- ${x}`);
  return [
    `# Simulation card: ${card.title}`,
    '',
    `As proposed by ${card.proposedBy}.`,
    '',
    '## Simulation',
    '',
    `- kind: ${card.simulation.kind}`,
    `- world: ${card.simulation.world}`,
    '',
    '| mode | simulation | who writes | information asymmetry |',
    '| --- | --- | --- | --- |',
    ...card.simulation.modes.map(
      (m) => `| ${m.mode} | ${m.simulation} | ${m.writer} | ${m.informationAsymmetry} |`,
    ),
    '',
    '## Agents and judge',
    '',
    `- agent type: ${card.agents.type}`,
    `- agent model: \`${card.agents.model}\`, temperature ${card.agents.temperature}`,
    `- actions: ${card.agents.actions.join(', ')}`,
    `- judge model: \`${card.judge.model}\`, temperature ${card.judge.temperature}`,
    `- judge dimensions: ${card.judge.dimensions.map((d) => `${d.name} ${d.min}..${d.max}`).join(', ')}`,
    '',
    '## Interaction and memory',
    '',
    `- turns: ${card.interaction.turnTaking}; ends ${card.interaction.ends}`,
    '',
    '## Protocol',
    '',
    `- protocol: ${card.protocol.name} (${card.protocol.source})`,
    ...Object.entries(card.protocol.options).map(([k, v]) => `- ${k}: ${JSON.stringify(v)}`),
    `- reply contract: ${card.protocol.options.contract ?? 'grapevine-v0'}`,
    `- template pack: ${card.protocol.templates.dir} (pack sha256 ${card.protocol.templates.pack}); wording: ${card.protocol.templates.wording}`,
    ...Object.entries(card.protocol.templates.sha256).map(([f, h]) => `  - ${f}: sha256 ${h}`),
    `- memory: ${card.memory}`,
    '',
    '## Profiles (data provenance)',
    '',
    `- ${card.profiles.source}`,
    `- data: ${card.profiles.dataDir}`,
    ...('repository' in card.profiles.provenance
      ? [
          `- from \`${card.profiles.provenance.repository}\` commit \`${card.profiles.provenance.commit}\`, \`${card.profiles.provenance.folder}\`, licence ${card.profiles.provenance.licence}`,
          `- cite: ${card.profiles.provenance.citation}`,
        ]
      : [`- ${card.profiles.provenance.note}`]),
    `- counts: ${card.profiles.counts.agents} characters, ${card.profiles.counts.environments} scenarios, ${card.profiles.counts.relationships} relationships, ${card.profiles.counts.combos} scenario-character pairs`,
    ...Object.entries(card.profiles.files).map(([f, h]) => `- \`${f}\` sha256 \`${h}\``),
    `- partner view: ${card.profiles.partnerView}`,
    '',
    '## Design',
    '',
    `- scenarios: \`${card.scenarios.selector}\` (${card.scenarios.count}: ${Object.entries(
      card.scenarios.bySource,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}), ${card.scenarios.pairsPerScenario} pair(s) each`,
    `- episodes: ${card.design.episodes}; study seed ${card.design.seed}`,
    `- episode seeds: ${card.design.episodeSeeds}`,
    `- pairing: ${card.design.paired}`,
    `- logs: ${card.design.logs}`,
    '',
    '## Metrics',
    '',
    ...li(card.metrics),
    '',
    ...(card.textDiagnostics ? renderTextDiagnostics(card.textDiagnostics) : []),
    '## Intended use',
    '',
    ...li(card.intendedUse),
    '',
    '## Caveats',
    '',
    ...li(card.caveats),
    '',
  ].join('\n');
}
