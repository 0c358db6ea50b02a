import { fileURLToPath } from 'node:url';
import { ConfigError, readInputText } from '../../src/index.ts';
import type { TownParams } from './params.ts';

/** A persona from agents/personas.json. */
export interface Persona {
  name: string;
  age: number;
  occupation: string;
  persona: string;
  goal: string;
}

/** One resident: persona, what it knows at the start, and whether an LLM drives it. */
export interface Resident extends Persona {
  index: number;
  llm: boolean;
  /** Items known at tick 0. */
  starts: ('fact' | 'rumor')[];
  /** The secret this resident keeps, if any. */
  secret?: string;
}

const PERSONAS_PATH = fileURLToPath(new URL('../../agents/personas.json', import.meta.url));

/**
 * Reads personas (default: the shipped file) as a regular file within the memory budget.
 * Their text reaches the log through the prompts, so an
 * edited persona makes a replay stop at the first prompt that differs.
 */
export function loadPersonas(path = PERSONAS_PATH): { personas: Persona[] } {
  const text = readInputText(path, { what: 'personas file', bytesPerByte: 8 });
  let personas: Persona[];
  try {
    personas = JSON.parse(text) as Persona[];
  } catch (cause) {
    throw new ConfigError(`personas file ${path} is not valid JSON`, {
      cause,
      hint: 'it must be a JSON array of {name, age, occupation, persona, goal}',
    });
  }
  if (!Array.isArray(personas) || personas.length === 0)
    throw new ConfigError(`${path} holds no personas`, { hint: 'it must be a non-empty JSON array' });
  personas.forEach((p, k) => {
    for (const field of ['name', 'occupation', 'persona', 'goal'] as const) {
      if (typeof p?.[field] !== 'string' || !p[field])
        throw new ConfigError(`persona ${k} in ${path} has no "${field}"`, {
          hint: 'every persona needs name, age, occupation, persona and goal',
        });
    }
  });
  return { personas };
}

const ORDINALS = ['', ' II', ' III', ' IV'];

/** Builds the cast for a run: personas cycled (with a suffix) and roles assigned by index. */
export function buildCast(p: TownParams, personas: readonly Persona[], secretText: string): Resident[] {
  const llm = p.llmAgents ?? p.agents;
  if (llm > p.agents)
    throw new ConfigError(`llmAgents (${llm}) exceeds agents (${p.agents})`, {
      hint: 'llmAgents must be at most agents',
    });
  const roles = 1 + p.factKnowers + (p.rumorPlanter ? 1 : 0);
  if (roles > p.agents)
    throw new ConfigError(
      `the roles (secret holder, ${p.factKnowers} fact knowers, rumour planter) need ${roles} agents, only ${p.agents}`,
      { hint: 'lower factKnowers or raise agents' },
    );
  return Array.from({ length: p.agents }, (_, index) => {
    const base = personas[index % personas.length];
    const suffix =
      ORDINALS[Math.floor(index / personas.length)] ?? ` ${Math.floor(index / personas.length) + 1}`;
    const starts: Resident['starts'] = [];
    if (index >= 1 && index <= p.factKnowers) starts.push('fact');
    if (p.rumorPlanter && index === p.factKnowers + 1) starts.push('rumor');
    return {
      ...base,
      name: base.name + suffix,
      index,
      llm: index < llm,
      starts,
      ...(index === 0 && p.secretHolder ? { secret: secretText } : {}),
    };
  });
}
