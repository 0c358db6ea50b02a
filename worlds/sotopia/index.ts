import { defineWorld } from '../../src/index.ts';
import { backgroundFor } from './background.ts';
import { characterPolicy } from './character-policy.ts';
import { environmentPolicy } from './environment-policy.ts';
import { type Episode, resolveEpisode } from './episode.ts';
import { importSotopia } from './importer.ts';
import { sotopiaAgent } from './machine.ts';
import { migrateSotopiaParams, type SotopiaParams, sotopiaParams } from './params.ts';
import { privateItemsOf } from './private-items.ts';
import type { SotopiaRun, ZhouRun } from './run-context.ts';
import { ENV_SEAT, SEATS } from './seats.ts';
import { sotopiaMetrics, sotopiaSummary } from './summary.ts';
import { loadTemplates, REPAIR_TEMPLATES, type Templates } from './templates.ts';
import { DyadTurnPolicy } from './turns.ts';
import { environmentView, isWriterMode, seatView, writerView } from './views.ts';

/** The zhou2024 part of a run: templates (checked here), backgrounds, per-seat and writer parameters. */
function zhouRun(episode: Episode, params: SotopiaParams, model: string, seed: number): ZhouRun {
  const seatModel = (k: number) => params.seatModels[k] || model;
  return {
    templates: loadTemplates(params.templates),
    backgrounds: [backgroundFor(episode, 0), backgroundFor(episode, 1)],
    omniscient: backgroundFor(episode, 'omniscient'),
    seatParams: [0, 1].map((k) => ({
      model: seatModel(k),
      temperature: params.temperature,
      seed,
    })) as ZhouRun['seatParams'],
    writerParams: { model, temperature: params.writerTemperature, seed },
  };
}

/** The template hashes a log records: the repair templates only when `parsing: sotopia` uses them. */
function recordedHashes(t: Templates, params: SotopiaParams): Record<string, string> {
  if (params.parsing === 'sotopia') return t.hashes;
  const unused = new Set(REPAIR_TEMPLATES.map((n) => `${n}.txt`));
  return Object.fromEntries(Object.entries(t.hashes).filter(([file]) => !unused.has(file)));
}

/**
 * Sotopia's dyadic episodes (Zhou et al., ICLR 2024) on the shipped Sotopia profiles, in the
 * four modes of Zhou et al. 2024: `agents` (each character its own LLM calls, seeing only
 * what it may), `mindreaders` (each also sees the other's goal and secret), `script` (one
 * omniscient call writes the episode) and `playwright` (an omniscient writer, turn by
 * turn). Seats 0 and 1 are the characters, seat 2 the environment: the writer in the
 * omniscient modes and, when the episode is over, the Sotopia-EVAL judge. `create` reads
 * the data and builds views only; it never calls the LLM (the audit relies on that).
 */
export const world = defineWorld({
  id: 'sotopia',
  version: '2.1.0',
  description:
    'Sotopia dyadic episodes (agents, mindreaders, script, playwright modes) judged on Sotopia-EVAL dimensions',
  params: sotopiaParams,
  migrateParams: migrateSotopiaParams,
  needsLlm: true,
  fixedAtCreation: [
    'scenario',
    'pair',
    'mode',
    'data',
    'judge',
    'judgeModel',
    'temperature',
    'protocol',
    'templates',
    'seatModels',
  ],
  fileParams: { data: { needs: 'a Sotopia data directory' }, templates: { needs: 'a templates directory' } },
  metrics: { turns: { label: 'turns taken', unit: 'turns', kind: 'count' } },
  defaultTicks: 1000,
  create({ params, llm, model, fallbacks, seed }) {
    const data = importSotopia(params.data || undefined);
    const episode = resolveEpisode(data, params.scenario, params.pair);
    const agentModel = model ?? 'grapevine-local';
    const zhou = params.protocol === 'zhou2024' ? zhouRun(episode, params, agentModel, seed) : undefined;
    const run: SotopiaRun = {
      params,
      episode,
      views: [seatView(episode, 0, params.mode), seatView(episode, 1, params.mode)],
      writer: writerView(episode),
      environment: environmentView(episode),
      llm,
      llmParams: { model: agentModel, temperature: params.temperature, seed },
      judgeParams: { model: params.judgeModel || agentModel, temperature: 0, seed },
      fallbacks: fallbacks ?? { fallbacks: 0 },
      zhou,
    };
    return {
      size: SEATS,
      agents: sotopiaAgent,
      executor: 'xstate',
      turnPolicy: new DyadTurnPolicy(isWriterMode(params.mode)),
      policy: (ctx) => (ctx.agent === ENV_SEAT ? environmentPolicy(run, ctx) : characterPolicy(run, ctx)),
      stop: (view) => (view.stateOf(ENV_SEAT, 'episode') === 'over' ? 'episode-end' : null),
      metrics: (view) => sotopiaMetrics(view),
      summary: (_history, view) => sotopiaSummary(run, view),
      privateItems: privateItemsOf(episode, params.mode, params.protocol),
      inputs: {
        sotopia: {
          files: data.files,
          issues: data.issues.length,
          ...(zhou && { templates: recordedHashes(zhou.templates, params) }),
        },
      },
    };
  },
});
