import { ConfigError } from '../../src/index.ts';
import type { SotopiaData } from './importer.ts';
import type {
  RelationshipLevel,
  SotopiaAgent,
  SotopiaCombo,
  SotopiaEnvironment,
  SotopiaRelationship,
} from './records.ts';

/** One (scenario, pair): the cast of one episode. */
export interface Episode {
  env: SotopiaEnvironment;
  /** Index of the combination among the scenario's combinations (file order). */
  pair: number;
  combo: SotopiaCombo;
  /** Seat 0 and seat 1: `combo.agent_ids` in order; seat k pursues `env.agent_goals[k]`. */
  agents: [SotopiaAgent, SotopiaAgent];
  /** "First Last" of each seat. */
  names: [string, string];
  /** The scenario's relationship level: it decides what each seat sees of the other. */
  relationship: RelationshipLevel;
  /** The pair's relationship profile, if the data has one (not shown to the agents). */
  profile?: SotopiaRelationship;
}

/** "First Last". */
export function fullName(a: SotopiaAgent): string {
  return `${a.first_name} ${a.last_name}`.trim();
}

/**
 * Scenarios matching a selector: an `env_id`, a codename (several scenarios may share one),
 * or `source:<source>` (e.g. `source:craigslist_bargains`); all of them for `''` or `all`.
 */
export function findEnvironments(data: SotopiaData, selector: string): SotopiaEnvironment[] {
  const s = selector.trim();
  if (s === '' || s === 'all') return data.environments;
  if (s.startsWith('source:')) return data.environments.filter((e) => e.source === s.slice(7));
  const byId = data.environments.filter((e) => e.env_id === s);
  return byId.length > 0 ? byId : data.environments.filter((e) => e.codename === s);
}

/** The combinations of a scenario, in file order (the `pair` index counts these). */
export function combosOf(data: SotopiaData, envId: string): SotopiaCombo[] {
  return data.combos.filter((c) => c.env_id === envId);
}

function pickEnvironment(data: SotopiaData, scenario: string): SotopiaEnvironment {
  if (scenario.trim() === '') {
    const first = data.environments[0];
    if (!first) throw new ConfigError(`no scenario could be imported from ${data.dir}`);
    return first;
  }
  const found = findEnvironments(data, scenario);
  if (found.length === 1) return found[0];
  if (found.length === 0)
    throw new ConfigError(`no Sotopia scenario "${scenario}"`, {
      hint: `give a codename or an env_id, e.g. ${data.environments
        .slice(0, 3)
        .map((e) => e.codename)
        .join(', ')}`,
    });
  throw new ConfigError(`"${scenario}" names ${found.length} scenarios`, {
    hint: `pick one by env_id: ${found.map((e) => e.env_id).join(', ')}`,
  });
}

/** Resolves the world's `scenario` and `pair` parameters to an episode's cast. */
export function resolveEpisode(data: SotopiaData, scenario: string, pair: number): Episode {
  const env = pickEnvironment(data, scenario);
  const combos = combosOf(data, env.env_id);
  const combo = combos[pair];
  if (!combo)
    throw new ConfigError(`scenario ${env.codename} (${env.env_id}) has no pair ${pair}`, {
      hint: combos.length ? `pair must be 0..${combos.length - 1}` : 'this scenario has no combinations',
    });
  if (env.agent_goals.length !== 2 || combo.agent_ids.length !== 2)
    throw new ConfigError(`scenario ${env.codename} is not dyadic`, {
      hint: 'the sotopia world plays scenarios with two goals and two characters',
    });
  const byId = new Map(data.agents.map((a) => [a.agent_id, a]));
  const agents = combo.agent_ids.map((x) => byId.get(x)!) as [SotopiaAgent, SotopiaAgent];
  const [a, b] = combo.agent_ids;
  const profile = data.relationships.find(
    (r) => (r.agent1_id === a && r.agent2_id === b) || (r.agent1_id === b && r.agent2_id === a),
  );
  return {
    env,
    pair,
    combo,
    agents,
    names: [fullName(agents[0]), fullName(agents[1])],
    relationship: env.relationship,
    ...(profile ? { profile } : {}),
  };
}
