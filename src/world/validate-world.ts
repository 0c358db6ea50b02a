import type { z } from 'zod';
import type { AgentMachine } from '../agent/index.ts';
import { type TurnPolicyEntry, TurnPolicyRegistry } from '../clock/index.ts';
import { RngStreams } from '../core/index.ts';
import { activationProblems } from './activation.ts';
import type { WorldDefinition } from './define-world.ts';
import { describeParams } from './resolve-params.ts';
import { declarationProblems } from './world-declarations.ts';

const OPTIONAL_HOOKS = ['init', 'metrics', 'stop', 'summary', 'intervene', 'getState', 'setState'] as const;

function isFunction(x: unknown): boolean {
  return typeof x === 'function';
}

function nonEmptyString(x: unknown): boolean {
  return typeof x === 'string' && x.trim() !== '';
}

function paramsProblems(params: unknown): string[] {
  const schema = params as { shape?: unknown; safeParse?: unknown } | undefined;
  if (!schema || typeof schema.shape !== 'object' || !isFunction(schema.safeParse))
    return ['`params` must be a zod object (z.object({ ... }), with a default for every field)'];
  const problems: string[] = [];
  const parsed = (schema.safeParse as (v: unknown) => { success: boolean; error?: { issues: unknown[] } })(
    {},
  );
  if (!parsed.success) {
    for (const issue of parsed.error?.issues ?? []) {
      const i = issue as { path?: PropertyKey[]; message?: string };
      problems.push(`parameter "${(i.path ?? []).join('.')}" has no default (${i.message ?? 'invalid'})`);
    }
  }
  try {
    describeParams({ params: schema as z.ZodObject });
  } catch (err) {
    problems.push(`\`params\` cannot be described as JSON Schema: ${(err as Error).message}`);
  }
  return problems;
}

/**
 * The problems of a world definition, one sentence each (empty when it is sound): the
 * fields `defineWorld` needs, and parameters that all have defaults.
 */
export function worldDefinitionProblems(def: unknown): string[] {
  if (typeof def !== 'object' || def === null)
    return ['the world is not an object (use defineWorld({ ... }))'];
  const d = def as Record<string, unknown>;
  const problems: string[] = [];
  if (d.kind !== 'grapevine-world') problems.push('the world was not made by defineWorld');
  if (!nonEmptyString(d.id) || /\s/.test(String(d.id)))
    problems.push('`id` must be a non-empty string without spaces');
  if (!nonEmptyString(d.version)) problems.push('`version` must be a non-empty string, e.g. "1.0.0"');
  if (typeof d.description !== 'string') problems.push('`description` must be a string');
  if (!isFunction(d.create)) problems.push('`create` must be a function (setup) => world instance');
  if (d.needsLlm !== undefined && typeof d.needsLlm !== 'boolean')
    problems.push('`needsLlm` must be a boolean');
  if (d.defaultTicks !== undefined && !(Number.isInteger(d.defaultTicks) && (d.defaultTicks as number) > 0))
    problems.push('`defaultTicks` must be a positive integer');
  const names = Object.keys((d.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  return [...problems, ...paramsProblems(d.params), ...declarationProblems(d, names)];
}

function turnPolicyProblem(turnPolicy: unknown, own: Record<string, TurnPolicyEntry> | undefined): string[] {
  let names: string[];
  try {
    const registry = new TurnPolicyRegistry(own);
    if (typeof turnPolicy === 'string' && registry.has(turnPolicy)) return [];
    names = registry.names();
  } catch (err) {
    return [(err as Error).message];
  }
  if (typeof turnPolicy === 'string')
    return [`\`turnPolicy\` "${turnPolicy}" is not one of ${names.join(', ')}`];
  const p = turnPolicy as { start?: unknown; turns?: unknown } | undefined;
  if (p && isFunction(p.start) && isFunction(p.turns)) return [];
  return [`\`turnPolicy\` must be one of ${names.join(', ')}, or a TurnPolicy object`];
}

/**
 * The problems of what a world's `create` returned, one sentence each (empty when it is
 * sound): a population size, an agent machine, a policy function, a turn policy, and hooks
 * that are functions.
 */
export function worldInstanceProblems(
  instance: unknown,
  def?: Pick<WorldDefinition, 'turnPolicies'>,
): string[] {
  if (typeof instance !== 'object' || instance === null)
    return ['`create` must return an object (the world instance)'];
  const w = instance as Record<string, unknown>;
  const problems: string[] = [];
  if (!(Number.isInteger(w.size) && (w.size as number) >= 0))
    problems.push('`size` (the population) must be a non-negative integer');
  const agents = w.agents as { machine?: unknown; layout?: unknown } | undefined;
  if (!agents || typeof agents !== 'object' || !agents.machine || !agents.layout)
    problems.push('`agents` must be an agent machine (defineAgentMachine({ ... }))');
  if (!isFunction(w.policy))
    problems.push('`policy` must be a function (ctx) => decision: each agent step calls it');
  problems.push(...turnPolicyProblem(w.turnPolicy, def?.turnPolicies));
  problems.push(...activationProblems(w.activation, agents?.layout ? (agents as AgentMachine) : undefined));
  if (w.executor !== undefined && w.executor !== 'xstate' && w.executor !== 'columnar')
    problems.push('`executor` must be "xstate" or "columnar"');
  if (w.latency !== undefined && !(Number.isInteger(w.latency) && (w.latency as number) >= 0))
    problems.push('`latency` must be a non-negative integer');
  for (const hook of OPTIONAL_HOOKS)
    if (w[hook] !== undefined && !isFunction(w[hook])) problems.push(`\`${hook}\` must be a function`);
  return problems;
}

/**
 * Checks a world as `grapevine check` does: its definition, then (when that is sound) the
 * instance `create` builds with default parameters and seed 1. A `create` that throws is a
 * problem too. Worlds that need an LLM are built without one (their `create` must not call it).
 */
export function checkWorld(def: unknown): string[] {
  const problems = worldDefinitionProblems(def);
  if (problems.length) return problems;
  const world = def as WorldDefinition;
  let instance: unknown;
  try {
    const params = world.params.parse({});
    instance = world.create({ params, seed: 1, rng: new RngStreams(1), fallbacks: { fallbacks: 0 } });
  } catch (err) {
    return [`\`create\` threw with default parameters and seed 1: ${(err as Error).message}`];
  }
  return worldInstanceProblems(instance, world);
}
