/**
 * `json.dumps(value, sort_keys=True, separators=(",", ":"))` as Python writes it (ensure_ascii on), for the
 * digests uagents-core signs over its models. Covers what those models hold: strings, integers, booleans,
 * null, lists and objects.
 */
export function pythonJsonDumps(value: unknown): string {
  return serialize(value).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function serialize(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError('only safe integers can be signed');
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`).join(',')}}`;
  }
  throw new TypeError(`cannot sign a ${typeof value}`);
}
