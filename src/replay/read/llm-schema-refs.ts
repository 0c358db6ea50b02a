import { logError } from '../format/log-format.ts';

/**
 * The schemas of a log's `schema` lines (log format 2), by id, and what an `llm` record
 * looks like with its schema put back (see `LlmSchemaTable` in src/world for the writer).
 */
export class LlmSchemaRefs {
  private readonly schemas = new Map<string, unknown>();

  /**
   * @param path the log's path, for error messages.
   * @param strict refuse a reference that no earlier `schema` line defines (a read from
   *   the log's start); a fork reading from its restore point passes false, and such an
   *   `llm` record keeps its `schemaRef` (its prompt hash still identifies the call).
   */
  constructor(
    private readonly path: string,
    private readonly strict = true,
  ) {}

  /** Takes a `schema` line's event (`{id, schema}`). */
  define(event: Record<string, unknown>): void {
    this.schemas.set(String(event.id), event.schema);
  }

  /**
   * An `llm` record with its schema back in `params.json.schema` (format 2 writes it once,
   * in a `schema` line, and refers to it by `params.json.schemaRef`); other records as they are.
   *
   * @throws LogFormatError (strict) when no earlier `schema` line defines the reference.
   */
  resolve(record: Record<string, unknown>, line: number): Record<string, unknown> {
    const params = record.params as Record<string, unknown> | undefined;
    const json = params?.json as Record<string, unknown> | undefined;
    if (json?.schemaRef === undefined) return record;
    const { schemaRef, ...rest } = json;
    const schema = this.schemas.get(String(schemaRef));
    if (schema !== undefined) return { ...record, params: { ...params, json: { ...rest, schema } } };
    if (!this.strict) return record;
    const message = `${this.path}: line ${line} refers to schema ${String(schemaRef).slice(0, 12)}, which no earlier schema line defines`;
    const hint = 'the log is not complete from its start, or was written by another program';
    throw logError(message, { line }, hint);
  }
}
