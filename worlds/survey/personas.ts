import { ConfigError, type Rng, z } from '../../src/index.ts';
import { parseRows, readTableFile, type TableFile } from './table-file.ts';

/** A respondent's persona: attributes (`gender: female`) and an optional free-text description. */
export interface Persona {
  attributes: Record<string, string>;
  description?: string;
}

/** How the personas file is used: one persona per row, a weighted joint table, or marginals. */
export type PersonaMode = 'rows' | 'joint' | 'marginals';

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const cell = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const personaRow = z
  .record(z.string().regex(NAME, 'an attribute name is a letter, then letters, digits or _'), z.unknown())
  .transform((row, ctx) => {
    const attributes: Record<string, string> = {};
    let description: string | undefined;
    let weight = 1;
    for (const [key, raw] of Object.entries(row)) {
      const parsed = cell.safeParse(raw);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'must be a string or a number' });
        continue;
      }
      if (key === 'persona') description = parsed.data;
      else if (key === 'weight') weight = Number(parsed.data);
      else attributes[key] = parsed.data;
    }
    if (!(weight >= 0) || !Number.isFinite(weight))
      ctx.addIssue({ code: 'custom', path: ['weight'], message: 'must be a number ≥ 0' });
    if (Object.keys(attributes).length === 0)
      ctx.addIssue({ code: 'custom', message: 'a persona needs at least one attribute' });
    return { attributes, description, weight };
  });

const marginalRow = z.object({
  attribute: z.string().regex(NAME, 'an attribute name is a letter, then letters, digits or _'),
  value: cell,
  share: z.coerce.number().min(0),
});

const HINTS: Record<PersonaMode, string> = {
  rows: 'a persona row has attribute columns (e.g. gender, age) and optionally persona (free text); see docs/SURVEY.md',
  joint: 'a joint-table row has attribute columns and weight (a number ≥ 0); see docs/SURVEY.md',
  marginals: 'a marginals row has attribute, value and share; see docs/SURVEY.md',
};

function describe(p: { attributes: Record<string, string>; description?: string }): Persona {
  return p.description === undefined
    ? { attributes: p.attributes }
    : { attributes: p.attributes, description: p.description };
}

/** Draws an index with probability proportional to `weights` (which sum to more than 0). */
function drawWeighted(weights: readonly number[], total: number, rng: Rng): number {
  let u = rng.next() * total;
  for (let k = 0; k < weights.length; k++) {
    u -= weights[k];
    if (u < 0) return k;
  }
  return weights.length - 1;
}

function sampleMarginals(file: TableFile, n: number, rng: Rng): Persona[] {
  const rows = parseRows(file, marginalRow, HINTS.marginals);
  const attrs = new Map<string, { values: string[]; shares: number[] }>();
  for (const r of rows) {
    const a = attrs.get(r.attribute) ?? { values: [], shares: [] };
    a.values.push(r.value);
    a.shares.push(r.share);
    attrs.set(r.attribute, a);
  }
  for (const [name, a] of attrs)
    if (a.shares.reduce((s, x) => s + x, 0) <= 0)
      throw new ConfigError(`${file.path}: the shares of attribute "${name}" sum to 0`, {
        hint: HINTS.marginals,
      });
  return Array.from({ length: n }, () => {
    const attributes: Record<string, string> = {};
    for (const [name, a] of attrs) {
      const total = a.shares.reduce((s, x) => s + x, 0);
      attributes[name] = a.values[drawWeighted(a.shares, total, rng)];
    }
    return { attributes };
  });
}

/**
 * The population's personas: `rows` gives agent i the row i mod (rows); `joint` draws each
 * agent's row with probability proportional to its weight; `marginals` draws each attribute
 * independently from its shares. Draws come from `rng` (seeded by the run), agent by agent.
 */
export function loadPersonas(
  path: string,
  mode: PersonaMode,
  n: number,
  rng: Rng,
): { personas: Persona[]; file: TableFile } {
  const file = readTableFile(path);
  if (mode === 'marginals') return { personas: sampleMarginals(file, n, rng), file };
  const rows = parseRows(file, personaRow, HINTS[mode]);
  if (mode === 'rows')
    return { personas: Array.from({ length: n }, (_, i) => describe(rows[i % rows.length])), file };
  const weights = rows.map((r) => r.weight);
  const total = weights.reduce((s, x) => s + x, 0);
  if (total <= 0) throw new ConfigError(`${path}: the weights sum to 0`, { hint: HINTS.joint });
  return {
    personas: Array.from({ length: n }, () => describe(rows[drawWeighted(weights, total, rng)])),
    file,
  };
}
