import { z } from 'zod';
import { ConfigError, type Json } from '../core/index.ts';

const agent = z.number().int().min(0);
const edge = z.tuple([agent, agent]);

/** The interventions the engine itself understands; worlds may add their own types. */
export const interventionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('message'),
    from: z.number().int().min(-1).default(-1).describe('sender agent, or -1 for the outside world'),
    to: z.union([
      z.strictObject({ agent }),
      z.strictObject({ channel: z.string().min(1) }),
      z.literal('all'),
    ]),
    kind: z.string().min(1).default('say'),
    item: z.string().optional(),
    payload: z.json().optional(),
  }),
  z.strictObject({
    type: z.literal('agent'),
    agent,
    events: z.array(z.string().min(1)).default([]).describe('statechart events to send'),
    memory: z.record(z.string(), z.json()).default({}).describe('memory entries to set'),
    forget: z.array(z.string()).default([]).describe('memory entries to remove (set to null)'),
  }),
  z.strictObject({
    type: z.literal('network'),
    add: z.array(edge).default([]),
    remove: z.array(edge).default([]),
    isolate: z.array(agent).default([]),
  }),
  z.strictObject({ type: z.literal('params'), set: z.record(z.string(), z.json()) }),
  z.strictObject({ type: z.literal('reseed'), seed: z.number().int() }),
]);

/** An intervention the engine applies itself. */
export type EngineIntervention = z.infer<typeof interventionSchema>;

/** Any intervention: an engine one, or a world-specific one (`{ type, ...fields }`). */
export type Intervention = EngineIntervention | { type: string; [key: string]: Json };

const ENGINE_TYPES = new Set(['message', 'agent', 'network', 'params', 'reseed']);

/**
 * Validates one intervention: engine types against their schema (with the path of the
 * first problem in the message), world types by the world's own hook later.
 */
export function parseIntervention(raw: unknown, where: string): Intervention {
  if (typeof raw !== 'object' || raw === null || typeof (raw as { type?: unknown }).type !== 'string') {
    throw new ConfigError(`${where}: an intervention must be an object with a "type"`, {
      hint: 'types: message, agent, network, params, reseed, or one the world defines',
    });
  }
  if (!ENGINE_TYPES.has((raw as { type: string }).type)) return raw as Intervention;
  const r = interventionSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ConfigError(`${where}: ${issue.path.join('.') || 'intervention'}: ${issue.message}`, {
      hint: 'see docs/INTERVENTIONS.md for the fields of each type',
    });
  }
  return r.data;
}
