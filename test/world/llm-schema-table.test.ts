import { describe, expect, it } from 'vitest';
import { canonicalJson, LogFormatError, sha256Hex } from '../../src/core/index.ts';
import { LlmSchemaRefs } from '../../src/replay/read/llm-schema-refs.ts';
import { LlmSchemaTable } from '../../src/world/llm-schema-table.ts';

const schemaA = { type: 'object', properties: { action: { enum: ['speak', 'none'] } } };
const schemaB = { type: 'object', properties: { to: { enum: ['', 'Ada'] } } };
const record = (schema: unknown, caller: string) => ({
  caller,
  params: { model: 'm', json: { name: 'town_action', schema }, seed: 1 },
  promptHash: 'p',
});

describe('LlmSchemaTable (log format 2)', () => {
  it('writes each schema once, before its first use, and refers to it by its sha256 elsewhere', () => {
    const table = new LlmSchemaTable();
    const first = table.split(record(schemaA, '0'));
    const idA = sha256Hex(canonicalJson(schemaA));
    expect(first.schema).toEqual({ id: idA, schema: schemaA });
    expect(first.fields.params).toEqual({
      model: 'm',
      json: { name: 'town_action', schemaRef: idA },
      seed: 1,
    });
    // an equal schema (another object) is not written again; another schema is
    expect(table.split(record(JSON.parse(JSON.stringify(schemaA)), '1')).schema).toBeUndefined();
    expect(table.split(record(schemaB, '2')).schema?.schema).toEqual(schemaB);
    // a record without a schema is left as it is
    const plain = { caller: '3', params: { model: 'm' } };
    expect(table.split(plain)).toEqual({ fields: plain });
  });

  it('a table restored from a snapshot writes only the schemas not written before it', () => {
    const table = new LlmSchemaTable();
    table.split(record(schemaA, '0'));
    const state = table.state();
    const restored = new LlmSchemaTable();
    restored.restore(JSON.parse(JSON.stringify(state)));
    expect(restored.split(record(schemaA, '0')).schema).toBeUndefined();
    expect(restored.split(record(schemaB, '0')).schema).toBeDefined();
    expect(restored.state()).toEqual([...state, sha256Hex(canonicalJson(schemaB))].sort());
  });

  it('the reader puts the schema back, and names a reference no schema line defines', () => {
    const table = new LlmSchemaTable();
    const original = record(schemaB, '5');
    const { fields, schema } = table.split(original);
    const refs = new LlmSchemaRefs('x.ndjson');
    refs.define({ id: schema!.id, schema: schema!.schema });
    expect(refs.resolve(fields, 7)).toEqual(original);
    expect(refs.resolve(original, 7)).toBe(original);
    const empty = new LlmSchemaRefs('x.ndjson');
    expect(() => empty.resolve(fields, 7)).toThrow(LogFormatError);
    expect(() => empty.resolve(fields, 7)).toThrow(/x.ndjson: line 7 refers to schema/);
    // a fork's read from its restore point keeps the reference (the prompt hash names the call)
    expect(new LlmSchemaRefs('x.ndjson', false).resolve(fields, 7)).toBe(fields);
  });
});
