import { fileURLToPath } from 'node:url';
import { defineWorld, generateNetwork, type RngStreams, type Topology } from '../../src/index.ts';
import { loadItems } from './items.ts';
import { respondentAgent } from './machine.ts';
import { type SurveyParams, surveyParams } from './params.ts';
import { loadPersonas } from './personas.ts';
import { respondentPolicy, type Survey } from './policy.ts';

const DATA = (name: string) => fileURLToPath(new URL(`./data/${name}`, import.meta.url));
const PHASES = ['initial', 'discussion', 'pushback', 'done'] as const;

function network(p: SurveyParams, rng: RngStreams): Topology {
  const n = p.agents;
  if (p.network === 'complete' || n < 3)
    return generateNetwork({ kind: 'complete', n }, rng.stream('network'));
  const k = Math.max(2, Math.min(p.k - (p.k % 2), n - 1 - ((n - 1) % 2)));
  if (p.network === 'ring-lattice')
    return generateNetwork({ kind: 'ring-lattice', n, k }, rng.stream('network'));
  return generateNetwork({ kind: 'watts-strogatz', n, k, beta: p.beta }, rng.stream('network'));
}

/**
 * The survey world: persona-conditioned LLM respondents answer items (multiple choice,
 * Likert, numeric) from a file, alone; then, optionally, again after hearing their network
 * neighbours' answers; then, optionally, again after a scripted interlocutor pushes back
 * (the sycophancy probe). Option order is shuffled per respondent and item from a seeded
 * stream and shown in each prompt, so the log records it. See docs/SURVEY.md.
 */
export const world = defineWorld({
  id: 'survey',
  version: '1.0.0',
  description:
    'persona-conditioned LLM respondents answering survey items, with optional discussion and pushback phases',
  params: surveyParams,
  networkParams: ['k', 'beta'],
  fixedAtCreation: ['agents', 'network', 'k', 'beta', 'personas', 'personaMode', 'items'],
  fileParams: { personas: { needs: 'a personas file' }, items: { needs: 'an items file' } },
  metrics: Object.fromEntries(
    (['initial', 'discussion', 'pushback', 'done'] as const).map((phase) => [
      phase,
      {
        label: phase,
        unit: 'respondents',
        kind: 'state-count',
        region: 'phase',
        state: phase,
        group: 'Respondents per phase',
      },
    ]),
  ),
  needsLlm: true,
  defaultTicks: 3,
  create({ params, rng, seed, llm, model, fallbacks, resolvePath }) {
    // a file a parameter names is read through resolvePath: a rerun of a log then reads it
    // only when the user names it or its recorded sha256 matches (docs/SECURITY.md)
    const named = (param: 'items' | 'personas', fallback: string): string =>
      params[param] ? (resolvePath?.(param, params[param]) ?? params[param]) : fallback;
    const { items, file: itemsFile } = loadItems(named('items', DATA('items.yaml')));
    const personasPath = named('personas', DATA('marginals.yaml'));
    const { personas, file: personasFile } = loadPersonas(
      personasPath,
      params.personaMode,
      params.agents,
      rng.stream('personas'),
    );
    const topology = network(params, rng);
    const fallbackCounter = fallbacks ?? { fallbacks: 0 };
    const survey: Survey = {
      params,
      items,
      personas,
      topology,
      rng,
      llm: llm!,
      model: model ?? 'grapevine-local',
      seed,
      fallbacks: fallbackCounter,
    };
    return {
      size: params.agents,
      agents: respondentAgent,
      executor: 'xstate',
      network: topology,
      turnPolicy: 'simultaneous',
      policy: (ctx) => respondentPolicy(survey, ctx),
      metrics: (view) => Object.fromEntries(PHASES.map((p) => [p, view.count('phase', p)])),
      stop: (view) => (view.count('phase', 'done') === params.agents ? 'survey-complete' : null),
      summary: (_history, view) => ({
        respondents: params.agents,
        items: items.length,
        finished: view.count('phase', 'done'),
        fallbacks: fallbackCounter.fallbacks,
      }),
      inputs: {
        survey: {
          items: { file: params.items || 'worlds/survey/data/items.yaml', sha256: itemsFile.sha256 },
          personas: {
            file: params.personas || 'worlds/survey/data/marginals.yaml',
            sha256: personasFile.sha256,
          },
        },
      },
    };
  },
});
