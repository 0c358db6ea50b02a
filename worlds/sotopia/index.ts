import { defineWorld } from '../../src/index.ts';
import { characterPolicy } from './character-policy.ts';
import { environmentPolicy } from './environment-policy.ts';
import { resolveEpisode } from './episode.ts';
import { importSotopia } from './importer.ts';
import { sotopiaAgent } from './machine.ts';
import { migrateSotopiaParams, sotopiaParams } from './params.ts';
import { privateItemsOf } from './private-items.ts';
import { chooseProtocol } from './protocols/choose.ts';
import type { SotopiaRun } from './run-context.ts';
import { ENV_SEAT, SEATS } from './seats.ts';
import { sotopiaMetrics, sotopiaSummary } from './summary.ts';
import { DyadTurnPolicy } from './turns.ts';
import { isWriterMode } from './views.ts';

/**
 * Sotopia's dyadic episodes (Zhou et al., ICLR 2024) on the shipped Sotopia profiles, in the
 * four modes of Zhou et al. 2024: `agents` (each character its own LLM calls, seeing only
 * what it may), `mindreaders` (each also sees the other's goal and secret), `script` (one
 * omniscient call writes the episode) and `playwright` (an omniscient writer, turn by
 * turn). Seats 0 and 1 are the characters, seat 2 the environment: the writer in the
 * omniscient modes and, when the episode is over, the Sotopia-EVAL judge. `create` reads
 * the data (and, under zhou2024, the template pack) and chooses the run's protocol; it
 * never calls the LLM (the audit relies on that).
 */
export const world = defineWorld({
  id: 'sotopia',
  version: '2.2.0',
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
  create({ params, llm, model, fallbacks, seed, resolvePath }) {
    // the folders a parameter names are read through resolvePath: a rerun of a log opens one
    // only when the user names it or its files have the hashes the log records (docs/SECURITY.md)
    const folder = (param: string, path: string, record: string) =>
      path ? (resolvePath?.(param, path, record) ?? path) : '';
    const data = importSotopia(folder('data', params.data, 'files') || undefined);
    const episode = resolveEpisode(data, params.scenario, params.pair);
    const templates = folder('templates', params.templates, 'templates');
    const protocol = chooseProtocol(episode, params, model ?? 'grapevine-local', seed, templates);
    const run: SotopiaRun = { params, episode, protocol, llm, fallbacks: fallbacks ?? { fallbacks: 0 } };
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
      inputs: { sotopia: { files: data.files, issues: data.issues.length, ...protocol.inputs } },
    };
  },
});
