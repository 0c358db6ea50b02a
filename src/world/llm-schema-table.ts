import { canonicalJson, sha256Hex } from '../core/index.ts';

/** A `schema` line to write before the `llm` line that first refers to it. */
export interface SchemaLine {
  /** SHA-256 (hex) of the canonical JSON of the schema. */
  id: string;
  schema: unknown;
}

/**
 * The schema table of log format 2: the JSON schema of a structured LLM call
 * (`params.json.schema` of an `llm` record) is written once, in a `schema` line
 * `{id, schema}` placed just before the first `llm` line that uses it, and every `llm`
 * line carries `params.json.schemaRef: id` instead. The ids written so far are part of a
 * snapshot (`schemas`), so a run continued from one writes the same lines as the run it
 * continues. Readers put the schema back (see `readRecordedRun`).
 */
export class LlmSchemaTable {
  private readonly written = new Set<string>();
  /** Schema object -> id, so that a schema object reused by a world is hashed once. */
  private readonly ids = new WeakMap<object, string>();

  /**
   * The fields of an `llm` line with its schema replaced by a reference, and the `schema`
   * line to write first (when this schema was not written before). Fields without a
   * schema are returned as they are.
   */
  split(fields: Record<string, unknown>): { fields: Record<string, unknown>; schema?: SchemaLine } {
    const params = fields.params as Record<string, unknown> | undefined;
    const json = params?.json as Record<string, unknown> | undefined;
    const schema = json?.schema;
    if (schema === null || typeof schema !== 'object') return { fields };
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = sha256Hex(canonicalJson(schema));
      this.ids.set(schema, id);
    }
    const { schema: _omitted, ...rest } = json as Record<string, unknown>;
    const out = { ...fields, params: { ...params, json: { ...rest, schemaRef: id } } };
    if (this.written.has(id)) return { fields: out };
    this.written.add(id);
    return { fields: out, schema: { id, schema } };
  }

  /** The ids written so far, sorted (for a snapshot; empty when none). */
  state(): string[] {
    return [...this.written].sort();
  }

  /** Restores {@link LlmSchemaTable.state}. */
  restore(ids: readonly string[]): void {
    this.written.clear();
    for (const id of ids) this.written.add(id);
  }
}
