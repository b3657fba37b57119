import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { pythonJsonDumps } from './python-json.ts';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  format?: string;
  title?: string;
  default?: unknown;
};
type PydanticSchema = Record<string, unknown>;

/** Python's `str.title()` of a field name, then `_` → space: how pydantic v1 titles a field. */
function fieldTitle(name: string): string {
  return name.replace(/[A-Za-z]+/g, (word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()).replace(/_/g, ' ');
}

const isNull = (schema: JsonSchema) => schema.type === 'null';
/** zod writes a nullable scalar as `type: [T, "null"]` and a nullable object as `anyOf`. */
const isNullable = (schema: JsonSchema) =>
  (Array.isArray(schema.type) && schema.type.includes('null')) || (schema.anyOf?.some(isNull) ?? false);

class PydanticV1Writer {
  readonly definitions: Record<string, PydanticSchema> = {};

  model(title: string, schema: JsonSchema): PydanticSchema {
    const properties: Record<string, PydanticSchema> = {};
    const required: string[] = [];
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const field = this.field(property, name);
      // pydantic v1 writes a nested model field as a bare $ref, without the field's title.
      properties[name] = '$ref' in field ? field : { title: fieldTitle(name), ...field };
      if (schema.required?.includes(name) && !isNullable(property) && property.default === undefined) required.push(name);
    }
    return { title, type: 'object', properties, ...(required.length ? { required } : {}) };
  }

  private field(schema: JsonSchema, name: string): PydanticSchema {
    // A union (zod writes a discriminated union as oneOf) minus its null variant, which only makes the field optional.
    const variants = (schema.anyOf ?? schema.oneOf)?.filter((variant) => !isNull(variant));
    if (variants?.length === 1) return { ...this.field(variants[0]!, name), ...defaultOf(schema) };
    if (variants) return { anyOf: variants.map((variant) => this.field(variant, name)), ...defaultOf(schema) };
    const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
    if (type.length !== 1) throw new TypeError(`field "${name}" mixes types; uAgents digests here cover single-type fields`);
    switch (type[0]) {
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
        // A Literal is an enum of one in pydantic v1; `format` is pydantic's (uuid4, date-time) where the zod schema names it.
        return {
          type: type[0],
          ...(schema.const === undefined ? {} : { enum: [schema.const] }),
          ...(schema.format === undefined ? {} : { format: schema.format }),
          ...defaultOf(schema),
        };
      case 'array':
        return { type: 'array', items: this.field(schema.items ?? {}, name), ...defaultOf(schema) };
      case 'object': {
        // A record (`dict[str, V]`): no properties of its own, only the type of its values.
        if (!schema.properties && typeof schema.additionalProperties === 'object')
          return { type: 'object', additionalProperties: this.field(schema.additionalProperties, name), ...defaultOf(schema) };
        const title = schema.title;
        if (!title) throw new TypeError(`nested model in field "${name}" needs a title: .meta({ title: 'ModelName' })`);
        this.definitions[title] = this.model(title, schema);
        return { $ref: `#/definitions/${title}` };
      }
      default:
        throw new TypeError(`field "${name}" has a type uAgents digests are not defined for here`);
    }
  }
}

/** pydantic v1 writes no default of None (`x: T | None = None`). */
function defaultOf(schema: JsonSchema): PydanticSchema {
  return schema.default === undefined || schema.default === null ? {} : { default: schema.default };
}

/** The pydantic-v1 JSON schema of a model (`Model.schema()`), as a protocol manifest lists it. */
export function modelSchema(title: string, schema: z.ZodObject): PydanticSchema {
  const writer = new PydanticV1Writer();
  const model = writer.model(title, z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  const definitions = Object.keys(writer.definitions).length ? { definitions: writer.definitions } : {};
  return { ...model, ...definitions };
}

/** The pydantic-v1 JSON schema text uAgents hashes for a model (`schema_json(indent=None, sort_keys=True)`). */
export function modelSchemaJson(title: string, schema: z.ZodObject): string {
  return pythonJsonDumps(modelSchema(title, schema), { sortKeys: true, compact: false });
}

/** The uAgents schema digest of a message model: `model:` + sha256 hex of its schema JSON. */
export function schemaDigest(title: string, schema: z.ZodObject): string {
  return `model:${bytesToHex(sha256(utf8ToBytes(modelSchemaJson(title, schema))))}`;
}
