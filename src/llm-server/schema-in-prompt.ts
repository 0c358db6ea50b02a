import type { JsonSchemaObject } from './chat-request.ts';

/**
 * A reply format that a prompt asks for in its own text (no `response_format`), as prompts
 * written for LangChain's output parsers do: a fenced `json` block holding a JSON Schema
 * object (`"type"` or `"properties"`). The reply is then a JSON instance of that schema.
 * Formats of one world's own (a script, a questionnaire) are read by that world's responder.
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
