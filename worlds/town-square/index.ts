import {
  defineWorld,
  generateNetwork,
  type MetricDeclarations,
  type Topology,
  type WorldControl,
} from '../../src/index.ts';
import { buildCast, loadPersonas, type Resident } from './cast.ts';
import { TOWN_ITEMS } from './items.ts';
import { llmPolicy } from './llm-policy.ts';
import { townAgent } from './machine.ts';
import { townMetrics, townSummary } from './metrics.ts';
import { type TownParams, townParams } from './params.ts';
import { rulePolicy } from './rule-policy.ts';
import { ITEM_HANDLES, type Town } from './town.ts';

const SECRET = TOWN_ITEMS.find((i) => i.id === 'secret')!.text;
const BECOME_LLM = townAgent.layout.event('BECOME_LLM');

function network(p: TownParams, rng: import('../../src/index.ts').RngStreams): Topology {
  const k = Math.min(p.k - (p.k % 2), p.agents - 1 - ((p.agents - 1) % 2));
  if (p.network === 'complete')
    return generateNetwork({ kind: 'complete', n: p.agents }, rng.stream('network'));
  if (p.network === 'ring-lattice')
    return generateNetwork({ kind: 'ring-lattice', n: p.agents, k }, rng.stream('network'));
  return generateNetwork({ kind: 'watts-strogatz', n: p.agents, k, beta: p.beta }, rng.stream('network'));
}

function init(control: WorldControl, cast: readonly Resident[]): void {
  for (const r of cast) {
    const ex = control.executor;
    if (r.llm) ex.sendId(r.index, BECOME_LLM);
    const words: Record<string, string> = {};
    for (const h of ITEM_HANDLES) {
      const starts = r.starts.includes(h.item.id as 'fact' | 'rumor') || (h.item.id === 'secret' && r.secret);
      if (!starts) continue;
      ex.sendId(r.index, r.llm ? h.learn : h.spread);
      ex.setSlot(r.index, h.src, r.index);
      ex.setSlot(r.index, h.at, 0);
      if (h.item.id !== 'secret') words[h.item.id] = h.item.text;
    }
    if (Object.keys(words).length) ex.setMemory(r.index, 'heard', words);
  }
}

/**
 * The town square: 5 to 2000 residents with personas, a public square and direct messages
 * between network neighbours, and private knowledge (a secret, a true fact, a planted
 * rumour). LLM residents see only their own profile, memory and what was said to them or
 * in the square; the rest follow the rumour world's rules.
 */
export const world = defineWorld({
  id: 'town-square',
  version: '1.1.0',
  description:
    'LLM residents (and optional rule agents) trading a fact, a rumour and a secret in a town square and in direct messages',
  params: townParams,
  networkParams: ['k', 'beta'],
  fixedAtCreation: [
    'personas',
    'agents',
    'llmAgents',
    'network',
    'k',
    'beta',
    'factKnowers',
    'rumorPlanter',
    'secretHolder',
    'turns',
    'networkView',
  ],
  fileParams: { personas: { needs: 'a personas JSON file' } },
  metrics: Object.fromEntries(
    ['fact', 'rumor', 'secret'].flatMap((item) => [
      [
        `${item}.knowers`,
        {
          label: `${item}: knowers`,
          unit: 'agents',
          kind: 'count',
          item,
          group: 'Agents who know each item',
        },
      ],
      [
        `${item}.new`,
        {
          label: `${item}: learned it`,
          unit: 'agents per tick',
          kind: 'count',
          item,
          group: 'Newly knowing per tick',
        },
      ],
      [
        `${item}.llmKnowers`,
        {
          label: `${item}: LLM knowers`,
          unit: 'agents',
          kind: 'count',
          item,
          group: 'LLM agents who know each item',
        },
      ],
      [
        `${item}.fraction`,
        {
          label: `${item}: share knowing`,
          unit: 'share of agents',
          kind: 'share',
          item,
          group: 'Share who know each item',
        },
      ],
    ]),
  ) as MetricDeclarations,
  needsLlm: true,
  defaultTicks: 10,
  create({ params, rng, seed, llm, model, fallbacks, resolvePath }) {
    // a personas file is read through resolvePath: a rerun of a log reads it only when the
    // user names it (--input personas=FILE; the header records no hash of it, as it never
    // did, so that older logs keep verifying) (docs/SECURITY.md)
    const file = params.personas
      ? (resolvePath?.('personas', params.personas) ?? params.personas)
      : undefined;
    const { personas } = loadPersonas(file);
    const cast = buildCast(params, personas, SECRET);
    const topology = network(params, rng);
    const town: Town = {
      params,
      cast,
      topology,
      llm,
      model: model ?? 'grapevine-local',
      seed,
      fallbacks: fallbacks ?? { fallbacks: 0 },
      said: new WeakMap(),
    };
    return {
      size: params.agents,
      agents: townAgent,
      executor: 'xstate',
      network: topology,
      turnPolicy: params.turns,
      channels: { square: cast.map((r) => r.index) },
      visibility: [
        {
          name: 'direct-needs-edge',
          rule: (m, to, { network: now }) =>
            m.route === 'direct' &&
            m.from >= 0 &&
            !(params.networkView === 'current' && now ? now : topology).hasEdge(m.from, to)
              ? null
              : m,
        },
      ],
      policy: (ctx) => (cast[ctx.agent].llm ? llmPolicy(town, ctx) : rulePolicy(town, ctx)),
      init: (control) => init(control, cast),
      metrics: (view, previous) => townMetrics(town, view, previous),
      summary: (_history, view) => townSummary(town, view),
      privateItems: [
        ...cast.map((r) => ({ owner: r.index, kind: 'goal', text: r.goal })),
        ...cast.filter((r) => r.secret).map((r) => ({ owner: r.index, kind: 'secret', text: r.secret! })),
      ],
    };
  },
  // 1.0.0 read direct-message visibility and contact lists from the network as built
  migrateParams: (params, fromVersion) =>
    fromVersion === '1.0.0' ? { ...params, networkView: 'initial' } : params,
});
