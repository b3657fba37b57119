import { z } from 'zod';
import { ApiError } from '../../../../../lib/http/api-error.ts';
import type { ResponseFormat } from '../../../../../schemas/chat-parameters.ts';
import { OFFLINE_LABEL } from './label.ts';
import { askedShape, withoutShapes } from '../asked-shape.ts';
import { extract, listKind } from './text.ts';
import { fillArgument } from './tool-matcher.ts';

/** The JSON Schema keywords the offline engine builds values for. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

const SCHEMA_PARAM = 'response_format.json_schema.schema';
const MAX_DEPTH = 32;

function unsupported(why: string, param = SCHEMA_PARAM): ApiError {
  return new ApiError({
    status: 400,
    message: `the offline engine cannot produce JSON for this schema: ${why}`,
    type: 'invalid_request_error',
    param,
    code: 'unsupported_schema',
  });
}

/**
 * Refuses what the engine cannot honour before any work: regular expressions (it cannot build a string for one,
 * and a caller's pattern run on text the caller shaped could take exponential time) and nesting beyond MAX_DEPTH.
 */
function checkSchema(node: unknown, depth = 0): void {
  if (depth > MAX_DEPTH) throw unsupported(`it nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(node)) for (const item of node) checkSchema(item, depth + 1);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' || key === 'patternProperties') throw unsupported(`"${key}" (regular expressions) is not supported`);
      checkSchema(value, depth + 1);
    }
  }
}

const FORMATS: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'offline@example.com',
  uri: 'https://example.com/',
  uuid: '00000000-0000-0000-0000-000000000000',
};

/** Builds one value for `schema`, taking what the message says where a field's name asks for it (tool-matcher). */
class ValueBuilder {
  constructor(
    private readonly root: Record<string, unknown>,
    private readonly message: string,
    private readonly reply: string,
  ) {}

  build(schema: Schema, name: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw unsupported('its references recurse without end');
    if (schema.$ref) return this.build(this.resolve(schema.$ref), name, depth + 1);
    if ('const' in schema) return schema.const;
    if (schema.enum?.length) {
      const said = schema.enum.find((v) => typeof v === 'string' && this.message.toLowerCase().includes(v.toLowerCase()));
      return said ?? schema.enum[0];
    }
    const branches = schema.anyOf ?? schema.oneOf;
    if (branches?.length) return this.build(branches.find((b) => b.type !== 'null') ?? branches[0]!, name, depth + 1);
    if (schema.allOf?.length) return this.build(Object.assign({}, ...schema.allOf) as Schema, name, depth + 1);
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string');
    switch (type) {
      case 'object':
        return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, this.build(sub, key, depth + 1)]));
      case 'array': {
        const found = this.extracted(schema, name);
        if (found) return found;
        const count = Math.min(Math.max(schema.minItems ?? 0, 1), schema.maxItems ?? 100, 100);
        return Array.from({ length: count }, () => this.build(schema.items ?? {}, name, depth + 1));
      }
      case 'number':
      case 'integer':
        return this.number(schema, type, name);
      case 'boolean':
        return fillArgument(name, { type: 'boolean' }, this.message) ?? false;
      case 'null':
        return null;
      default:
        return this.string(schema, name);
    }
  }

  /** A list of strings named for what the engine extracts (`tickers`, `emails`, …): everything of that kind the message has. */
  private extracted(schema: Schema, name: string): string[] | null {
    const kind = listKind(name);
    if (!kind || (schema.items?.type !== undefined && schema.items.type !== 'string')) return null;
    const found = extract(kind, this.message).slice(0, schema.maxItems ?? 100);
    return found.length >= (schema.minItems ?? 0) ? found : null;
  }

  private resolve(ref: string): Schema {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const defs = match ? (this.root[match[1]!] as Record<string, Schema> | undefined) : undefined;
    const target = match && defs && Object.hasOwn(defs, match[2]!) ? defs[match[2]!] : undefined;
    if (!target) throw unsupported(`the reference ${JSON.stringify(ref)} is not a local $defs entry`);
    return target;
  }

  private number(schema: Schema, type: 'number' | 'integer', name: string): number {
    const said = fillArgument(name, { type }, this.message) as number | undefined;
    const low = schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : schema.exclusiveMinimum + 1);
    const high = schema.maximum ?? (schema.exclusiveMaximum === undefined ? undefined : schema.exclusiveMaximum - 1);
    let value = said ?? low ?? 0;
    if (low !== undefined) value = Math.max(value, low);
    if (high !== undefined) value = Math.min(value, high);
    return type === 'integer' ? Math.ceil(value) : value;
  }

  private string(schema: Schema, name: string): string {
    const said = fillArgument(name, { type: 'string' }, this.message);
    const named = typeof said === 'string' && said !== this.message.trim() ? said : undefined;
    let text = named ?? (schema.format ? FORMATS[schema.format] : undefined) ?? this.reply;
    if (schema.maxLength !== undefined) text = text.slice(0, schema.maxLength);
    if (schema.minLength !== undefined) text = text.padEnd(schema.minLength, '.');
    return text;
  }
}

/**
 * The offline reply as JSON, for `response_format`. A JSON schema gets a value built for it (fields the message
 * names filled from it, lists of what the engine extracts filled with all it finds, other text fields the reply),
 * checked against the schema with zod's JSON Schema reader before it is sent. JSON mode builds for the shape the
 * conversation asks for in words (asked-shape.ts), and gives `{engine, reply}` when it asks for none. A schema
 * the engine cannot honour is a 400.
 */
export function jsonReply(
  format: Exclude<ResponseFormat, { type: 'text' }>,
  message: string,
  reply: string,
  conversation: string[],
): string {
  const asked = format.type === 'json_object' ? askedShape(conversation) : (format.json_schema.schema ?? { type: 'object' });
  if (!asked) return JSON.stringify({ engine: OFFLINE_LABEL, reply });
  const param = format.type === 'json_object' ? 'messages' : SCHEMA_PARAM;
  const name = format.type === 'json_object' ? 'reply' : format.json_schema.name;
  try {
    checkSchema(asked);
    const said = format.type === 'json_object' ? withoutShapes(message) : message;
    const value = new ValueBuilder(asked, said, reply).build(asked as Schema, name, 0);
    let check: z.ZodType;
    try {
      check = z.fromJSONSchema(asked as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      throw unsupported(error instanceof Error ? error.message : 'it cannot be read');
    }
    const result = check.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw unsupported(`the value built does not match it (${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'})`);
    }
    return JSON.stringify(value);
  } catch (error) {
    throw error instanceof ApiError && param !== SCHEMA_PARAM ? unsupported(error.message.replace(/^.*?: /, ''), param) : error;
  }
}
