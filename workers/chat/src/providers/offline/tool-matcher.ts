import type { Tool, ToolChoice } from '../../../../../schemas/chat.ts';
import { contentWords, EXTRACTORS, extract, listKind } from './text.ts';

interface ToolMatch {
  tool: Tool;
  arguments: Record<string, unknown>;
  reason: string;
}

interface JsonSchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  items?: { type?: string | string[] };
}

/** Fills one argument from the user's words by what its name says it holds; undefined when nothing fits. */
export function fillArgument(name: string, property: JsonSchemaProperty, message: string): unknown {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  const key = name.toLowerCase();
  if (property.enum?.length)
    return property.enum.find((value) => typeof value === 'string' && message.toLowerCase().includes(value.toLowerCase()));
  if (type === 'number' || type === 'integer') {
    const number = message.match(/-?\d+(?:\.\d+)?/)?.[0];
    return number === undefined ? undefined : type === 'integer' ? Math.trunc(Number(number)) : Number(number);
  }
  if (type === 'array') {
    // A list of what the engine extracts (tickers, emails, …), filled with all the message has.
    const kind = listKind(name);
    const itemType = property.items?.type;
    const found = kind && (itemType === undefined || itemType === 'string') ? extract(kind, message) : [];
    return found.length ? found : undefined;
  }
  if (type === 'boolean')
    return /\b(yes|true|enable|on)\b/i.test(message) ? true : /\b(no|false|disable|off)\b/i.test(message) ? false : undefined;
  if (type !== undefined && type !== 'string') return undefined;
  if (/ticker|symbol/.test(key)) return message.match(/\$?\b([A-Z]{1,5})\b(?![a-z])/)?.[1];
  if (/url|link/.test(key)) return message.match(EXTRACTORS.urls!)?.[0];
  if (/email/.test(key)) return message.match(EXTRACTORS.emails!)?.[0];
  if (/date/.test(key)) return message.match(/\b\d{4}-\d{2}-\d{2}\b/)?.[0];
  if (/address/.test(key) && /agent1/.test(message)) return message.match(EXTRACTORS.addresses!)?.[0];
  if (/city|location|place|country|region/.test(key)) {
    return message.match(/\b(?:in|for|at|near)\s+((?:[A-Z][\p{L}-]+)(?:\s+[A-Z][\p{L}-]+)*)/u)?.[1];
  }
  return message.trim();
}

/** How strongly a tool's name and description match the message: name words count double. */
function relevance(tool: Tool, message: string): { score: number; matched: string[] } {
  const said = new Set(contentWords(message).map((w) => w.replace(/s$/, '')));
  const nameWords = contentWords(tool.function.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')).map((w) =>
    w.replace(/s$/, ''),
  );
  const descriptionWords = contentWords(tool.function.description ?? '').map((w) => w.replace(/s$/, ''));
  const matchedName = [...new Set(nameWords.filter((w) => said.has(w)))];
  const matchedDescription = [...new Set(descriptionWords.filter((w) => said.has(w) && !matchedName.includes(w)))];
  return { score: matchedName.length * 2 + matchedDescription.length, matched: [...matchedName, ...matchedDescription] };
}

/**
 * Picks the tool that obviously applies: the one tool_choice forces, else the best-matching tool when the
 * message names it (a word of its name, or two words of its description). Every required argument must be
 * fillable from the message, otherwise no tool is called.
 */
export function matchTool(tools: Tool[], choice: ToolChoice | undefined, message: string): ToolMatch | null {
  if (choice === 'none' || !tools.length) return null;
  const forced = typeof choice === 'object' ? tools.find((t) => t.function.name === choice.function.name) : undefined;
  const ranked = tools
    .map((tool) => ({ tool, ...relevance(tool, message) }))
    .filter((entry) => entry.score >= 2)
    .sort((a, b) => b.score - a.score);
  const best = forced
    ? { tool: forced, score: 0, matched: [] as string[] }
    : (ranked[0] ?? (choice === 'required' ? { tool: tools[0]!, score: 0, matched: [] } : undefined));
  if (!best) return null;

  const schema = (best.tool.function.parameters ?? {}) as { properties?: Record<string, JsonSchemaProperty>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = fillArgument(name, property, message);
    if (value !== undefined && value !== '') args[name] = value;
  }
  if ((schema.required ?? []).some((name) => !(name in args))) return null;
  const reason = forced
    ? `tool_choice names ${forced.function.name}`
    : best.matched.length
      ? `the message mentions ${best.matched.map((w) => `"${w}"`).join(', ')} from ${best.tool.function.name}`
      : 'tool_choice is "required"; the first tool was taken';
  return { tool: best.tool, arguments: args, reason };
}
