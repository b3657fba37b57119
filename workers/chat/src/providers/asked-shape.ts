/**
 * The JSON shape a conversation asks for in words, for JSON mode (`json_object`, which carries no schema): a
 * JSON Schema written in a message, else an example object, else the keys a sentence names ("with 'setup' and
 * 'punchline' keys"). Read from every message, the system prompt included: that is where shapes are asked for.
 */

/** Top-level `{…}` blocks parsed per conversation at most: a schema or an example comes early. */
const MAX_BLOCKS = 20;
/** Key names taken from one sentence at most. */
const MAX_NAMED_KEYS = 32;

/** The top-level `{…}` blocks of a text, found in one pass (strings and escapes respected), in order. */
function objectBlocks(text: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length && blocks.length < MAX_BLOCKS; i++) {
    const char = text[i];
    if (depth > 0 && inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (depth > 0 && char === '"') inString = true;
    else if (char === '{') {
      if (depth++ === 0) start = i;
    } else if (char === '}' && depth > 0 && --depth === 0) blocks.push(text.slice(start, i + 1));
  }
  return blocks;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON Schema as people write one into a prompt: an object schema with its properties. */
function isSchema(value: Record<string, unknown>): boolean {
  return isObject(value.properties) && (value.type === 'object' || value.type === undefined || '$schema' in value);
}

/** The schema an example value stands for: its keys and the kinds of value they hold. */
function schemaOfExample(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', items: value.length ? schemaOfExample(value[0]) : { type: 'string' } };
  if (isObject(value)) {
    return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, schemaOfExample(sub)])) };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return { type: 'string' };
}

/** Plural names of things the engine extracts are lists ("tickers", "emails"); every other named key holds text. */
const LIST_NAMES = /^(tickers|symbols|emails|urls|links|dates|numbers|addresses|items|tags|keywords)$/i;

/** The keys a sentence names as keys, fields or properties, quoted or in backticks. */
function namedKeys(text: string): Record<string, unknown> | null {
  for (const sentence of text.split(/\n|(?<=[.!?])\s+/)) {
    if (!/\b(keys?|fields?|properties|attributes)\b/i.test(sentence)) continue;
    const names = [...sentence.matchAll(/[`'"‘“]([A-Za-z_][\w-]{0,63})[`'"’”]/g)].map((match) => match[1]!).slice(0, MAX_NAMED_KEYS);
    if (!names.length) continue;
    const properties = Object.fromEntries(
      names.map((name) => [name, LIST_NAMES.test(name) ? { type: 'array', items: { type: 'string' } } : { type: 'string' }]),
    );
    return { type: 'object', properties };
  }
  return null;
}

/** The text without its `{…}` blocks: an example's values are not what the user said. */
export function withoutShapes(text: string): string {
  return objectBlocks(text).reduce((rest, block) => rest.replace(block, ' '), text);
}

/** The shape the conversation asks for, as a JSON Schema; null when it asks for none. */
export function askedShape(texts: string[]): Record<string, unknown> | null {
  let example: Record<string, unknown> | null = null;
  for (const text of texts) {
    for (const block of objectBlocks(text)) {
      let value: unknown;
      try {
        value = JSON.parse(block);
      } catch {
        continue;
      }
      if (!isObject(value)) continue;
      if (isSchema(value)) return value;
      example ??= value;
    }
  }
  if (example) return schemaOfExample(example);
  for (const text of texts) {
    const named = namedKeys(text);
    if (named) return named;
  }
  return null;
}
