import { isWorldDefinition } from '../world/index.ts';
import { planCase } from './case-plan.ts';
import type { CaseDesign, ValidationCase } from './validation-case.ts';

const TEXT_FIELDS = ['id', 'model', 'setting', 'source'] as const;
const FUNCTION_FIELDS = ['design', 'run'] as const;

function isPositiveInt(x: unknown): boolean {
  return typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** What is wrong with the shape of one case (fields missing or of the wrong type). */
function shapeProblems(c: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of TEXT_FIELDS)
    if (typeof c[k] !== 'string' || c[k] === '') out.push(`"${k}" must be a non-empty string`);
  for (const k of FUNCTION_FIELDS) if (typeof c[k] !== 'function') out.push(`"${k}" must be a function`);
  if (typeof c.quick !== 'boolean') out.push('"quick" must be true or false');
  if (!isWorldDefinition(c.world)) out.push('"world" must be a world made by defineWorld');
  if (!isPlainObject(c.params)) out.push('"params" must be an object of world parameters');
  if (!Array.isArray(c.reads) || !c.reads.every((k) => typeof k === 'string'))
    out.push('"reads" must be an array of parameter names');
  for (const k of ['maxReplicates', 'quickReplicates'])
    if (!isPositiveInt(c[k])) out.push(`"${k}" must be a positive integer`);
  if (c.minReplicates !== undefined && !isPositiveInt(c.minReplicates))
    out.push('"minReplicates" must be a positive integer when given');
  return out;
}

/** What is wrong with the design a case gives at its own parameters (it must plan: finite, non-negative spreads). */
function designProblems(c: ValidationCase): string[] {
  let d: CaseDesign;
  try {
    d = c.design(c.params);
  } catch (e) {
    return [`design(params) threw: ${e instanceof Error ? e.message : String(e)}`];
  }
  if (!isPlainObject(d) || !['mean', 'proportion', 'exact'].includes(String(d.test)))
    return [
      'design(params) must return { test: "mean" | "proportion" | "exact", predicted, sd, bias, rule, deviation, qualify }',
    ];
  if (!isPlainObject(d.deviation) || typeof d.deviation.label !== 'string')
    return ['design(params).deviation must be { label, mean, sd }'];
  if (typeof d.rule !== 'string') return ['design(params).rule must say where the prediction comes from'];
  if (!(d.qualify > 0 && d.qualify <= 1)) return ['design(params).qualify must be a probability above 0'];
  try {
    planCase(d, 0.01, c.maxReplicates, c.minReplicates);
  } catch (e) {
    return [`design(params) cannot be planned: ${e instanceof Error ? e.message : String(e)}`];
  }
  return [];
}

/**
 * What is wrong with a list of validation cases that did not come from the engine (a world
 * file's `validationCases` export): its shape, each case's fields, duplicate ids, and each
 * design at the case's own parameters. Empty when every case can be planned and run.
 */
export function validationCaseProblems(list: unknown): string[] {
  if (!Array.isArray(list))
    return ['validationCases must be an array of cases (or a function returning one)'];
  if (list.length === 0) return ['validationCases is empty'];
  const out: string[] = [];
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const name = isPlainObject(c) && typeof c.id === 'string' ? `case "${c.id}"` : `case ${i}`;
    if (!isPlainObject(c)) {
      out.push(`${name}: not an object`);
      return;
    }
    const shape = shapeProblems(c);
    const problems = shape.length ? shape : designProblems(c as unknown as ValidationCase);
    for (const p of problems) out.push(`${name}: ${p}`);
    if (typeof c.id === 'string' && seen.has(c.id)) out.push(`${name}: the id is used twice`);
    if (typeof c.id === 'string') seen.add(c.id);
  });
  return out;
}
