import type { ValidationCase } from '../src/public/analysis.ts';
import { epidemicValidationCases } from './epidemic/validation.ts';
import { opinionCases } from './opinion/validation.ts';
import { rumorValidationCases } from './rumor/validation.ts';

/** Every built-in validation case, handed to `grapevine validate` by the CLI entry (src never imports worlds/). */
export function builtinValidationCases(): ValidationCase[] {
  return [...rumorValidationCases(), ...epidemicValidationCases(), ...opinionCases];
}
