import { z, type ZodType } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * zod → JSON Schema (draft 2020-12, what OpenAPI 3.1 uses). Requests are described as the client writes
 * them (`input`: before defaults and transforms), responses as the Worker writes them (`output`).
 */
function toJsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/**
 * The document's `components.schemas`: a schema with a title (`.meta({ title })`) is stored once under that
 * title and referenced; one without is inlined. A title whose input and output forms differ gets both,
 * the input one suffixed `Input`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(schema: ZodType, io: 'input' | 'output'): JsonSchema {
    const json = toJsonSchema(schema, io);
    const title = typeof json.title === 'string' ? json.title : undefined;
    if (!title) return json;
    for (const name of [title, `${title}Input`]) {
      const stored = this.schemas[name];
      if (!stored) {
        this.schemas[name] = json;
        return { $ref: `#/components/schemas/${name}` };
      }
      if (JSON.stringify(stored) === JSON.stringify(json)) return { $ref: `#/components/schemas/${name}` };
    }
    return json;
  }
}

/** Path or query parameters from a zod object: one OpenAPI parameter per property. */
export function parametersOf(schema: ZodType, where: 'path' | 'query'): JsonSchema[] {
  const json = toJsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}
