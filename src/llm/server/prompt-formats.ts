import type { JsonSchemaObject } from './chat-request.ts';

/**
 * Reply formats that a prompt asks for in its own text (no `response_format`), as prompts
 * written for LangChain's output parsers do. Two conventions (see README.md):
 * - a fenced `json` block holding a JSON Schema object (`"type"` or `"properties"`): the
 *   reply is a JSON instance of that schema;
 * - a `Participants: A and B` line together with `Turn #` format instructions: the reply is
 *   a script of `Turn #n` / `<name> <action>` lines (Sotopia's script format).
 */

const FENCED_JSON = /```json\s*\n([\s\S]*?)\n```/g;

/** The JSON Schema a prompt carries in a fenced `json` block, if any (the last such block). */
export function schemaInPrompt(text: string): JsonSchemaObject | undefined {
  let found: JsonSchemaObject | undefined;
  for (const m of text.matchAll(FENCED_JSON)) {
    try {
      const value = JSON.parse(m[1]) as unknown;
      if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        ('type' in value || 'properties' in value)
      )
        found = value as JsonSchemaObject;
    } catch {
      // not JSON: not a schema block
    }
  }
  return found;
}

/** The two participants of a prompt asking for a `Turn #` script, if it is one. */
export function scriptParticipants(text: string): [string, string] | undefined {
  if (!text.includes('Turn #')) return undefined;
  const m = /^Participants: (.+?) and (.+?)\s*$/m.exec(text);
  return m ? [m[1], m[2]] : undefined;
}

/**
 * A short script between the two participants: 2..6 turns, alternating from the first,
 * each a line said (the planned line first), the last sometimes a leave.
 */
export function renderScript(
  names: readonly [string, string],
  line: string,
  pick: { int(purpose: string, n: number): number; chance(purpose: string, p: number): boolean },
): string {
  const n = 2 + pick.int('script-turns', 5);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const speaker = names[k % 2];
    const other = names[(k + 1) % 2];
    const said = (k === 0 && line ? line : `I hear you, ${other}. Let us keep talking.`).replace(
      /["\n]/g,
      ' ',
    );
    const leaves = k === n - 1 && pick.chance('script-leave', 0.5);
    out.push(`Turn #${k + 1}`, leaves ? `${speaker} left the conversation` : `${speaker} said: "${said}"`);
  }
  return out.join('\n');
}
