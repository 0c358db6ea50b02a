import { ConfigError, z } from '../../src/index.ts';
import { parseRows, readTableFile, type TableFile } from './table-file.ts';

/** One answer option: a short id (what answers record) and the words shown. */
export interface SurveyOption {
  id: string;
  label: string;
}

/** A survey item: multiple choice, Likert (ordered options) or numeric. */
export interface SurveyItem {
  id: string;
  kind: 'choice' | 'likert' | 'numeric';
  text: string;
  /** Options in canonical order (Likert: lowest to highest); empty for numeric items. */
  options: SurveyOption[];
  /** Bounds of a numeric answer (inclusive), when given. */
  min?: number;
  max?: number;
}

const ID = /^[A-Za-z0-9_.-]+$/;

/** `a=Label` (or a bare label, whose id is its 1-based position). */
function optionOf(raw: string | { id: string; label: string }, k: number): SurveyOption {
  if (typeof raw !== 'string') return raw;
  const eq = raw.indexOf('=');
  return eq > 0
    ? { id: raw.slice(0, eq).trim(), label: raw.slice(eq + 1).trim() }
    : { id: String(k + 1), label: raw.trim() };
}

const optionObject = z.object({ id: z.string().regex(ID), label: z.string().min(1) });

const itemRow = z
  .object({
    id: z.coerce.string().regex(ID, 'an id is letters, digits, _ . -'),
    kind: z.enum(['choice', 'likert', 'numeric']),
    text: z.string().min(1),
    options: z
      .union([z.string().transform((s) => s.split('|')), z.array(z.union([z.string(), optionObject]))])
      .optional(),
    min: z.coerce.number().optional(),
    max: z.coerce.number().optional(),
  })
  .transform((r, ctx) => {
    const options = (r.options ?? []).map(optionOf);
    if (r.kind !== 'numeric' && options.length < 2)
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `a ${r.kind} item needs at least 2 options`,
      });
    if (r.kind === 'numeric' && options.length > 0)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'a numeric item has no options' });
    const ids = options.map((o) => o.id);
    const badId = ids.find((id, k) => !ID.test(id) || ids.indexOf(id) !== k);
    if (badId !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `option id "${badId}" is repeated or not letters, digits, _ . -`,
      });
    if (r.min !== undefined && r.max !== undefined && r.min > r.max)
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'min exceeds max' });
    const item: SurveyItem = { id: r.id, kind: r.kind, text: r.text, options };
    if (r.min !== undefined) item.min = r.min;
    if (r.max !== undefined) item.max = r.max;
    return item;
  });

const HINT =
  'an item row has id, kind (choice|likert|numeric), text, options ("a=Yes|b=No" in CSV, a list in JSON/YAML); numeric items may have min and max; see docs/SURVEY.md';

/**
 * Reads and validates an items file (CSV, JSON or YAML). A bad row, or a repeated item id,
 * throws a ConfigError naming `file:line`.
 */
export function loadItems(path: string): { items: SurveyItem[]; file: TableFile } {
  const file = readTableFile(path);
  const items = parseRows(file, itemRow, HINT);
  const seen = new Set<string>();
  items.forEach((item, k) => {
    if (seen.has(item.id))
      throw new ConfigError(`${path}:${file.rows[k].line}: item id "${item.id}" is repeated`, { hint: HINT });
    seen.add(item.id);
  });
  return { items, file };
}
