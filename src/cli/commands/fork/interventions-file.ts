import { existsSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError, checkBatchSize, readInputText } from '../../../core/index.ts';
import { type Intervention, parseIntervention, rejectUnsafeKeys } from '../../../world/index.ts';

/** Most interventions one file may hold. */
const MAX_INTERVENTIONS = 1_000_000;

/**
 * Reads interventions from a JSON or YAML file: one intervention object, an array of them,
 * or `{ interventions: [...] }`. Every entry is validated; the first problem is reported
 * with the file and the entry's position.
 */
export function readInterventions(path: string): Intervention[] {
  if (!existsSync(path))
    throw new ConfigError(`intervention file not found: ${path}`, {
      hint: 'check the path given to --intervene',
    });
  const text = readInputText(path, {
    what: 'intervention file',
    bytesPerByte: 32,
    maxBytes: 16 * 1024 * 1024,
  });
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(
      `intervention file ${path} cannot be parsed: ${(cause as Error).message.split('\n')[0]}`,
      { cause, hint: 'write JSON (.json) or YAML (.yaml, .yml)' },
    );
  }
  rejectUnsafeKeys(raw, `intervention file ${path}`);
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' &&
        raw !== null &&
        Array.isArray((raw as { interventions?: unknown }).interventions)
      ? (raw as { interventions: unknown[] }).interventions
      : [raw];
  if (list.length === 0)
    throw new ConfigError(`intervention file ${path} holds no interventions`, {
      hint: 'write one intervention object, or a list of them',
    });
  checkBatchSize({
    count: list.length,
    what: 'interventions',
    from: `intervention file ${path}`,
    max: MAX_INTERVENTIONS,
    bytesEach: 256,
    hint: 'split the interventions over several forks',
  });
  return list.map((entry, k) => parseIntervention(entry, `${path}: intervention ${k + 1}`));
}
