/**
 * JSON text as Python's `json.dumps` writes it (ensure_ascii on): uAgents hashes and sends that text, so
 * writing the same bytes gives the same digests, signatures and payloads as the Python SDK. The one encoder
 * of the platform: envelopes, protocol and schema digests (lib/envelope) and signed registry models
 * (lib/registry-client) all write through it.
 */
export interface PythonJsonOptions {
  /** `sort_keys=True`: object keys in code-unit order (Python sorts code points; keys here are ASCII). */
  sortKeys?: boolean;
  /** `separators=(",", ":")` when compact (the default); Python's default `", "` and `": "` otherwise. */
  compact?: boolean;
}

const NON_ASCII = /[\u007f-\uffff]/g;
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** `json.dumps(value, ensure_ascii=True, sort_keys=…, separators=…)`; undefined members are left out, as JSON.stringify does. */
export function pythonJsonDumps(value: unknown, options: PythonJsonOptions = {}): string {
  const { sortKeys = false, compact = true } = options;
  // Python's compact unsorted form is JSON.stringify's: the fast path for envelope payloads.
  const text = !sortKeys && compact ? JSON.stringify(value) : dumps(value, sortKeys, compact ? [',', ':'] : [', ', ': ']);
  if (text === undefined) throw new TypeError('value cannot be serialised as JSON');
  // Outside strings JSON text is ASCII already, so escaping the whole text only touches string contents.
  return text.replace(NON_ASCII, escapeChar);
}

function dumps(value: unknown, sortKeys: boolean, [item, key]: [string, string]): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((entry) => dumps(entry, sortKeys, [item, key]) ?? 'null').join(item)}]`;
  const members: [string, string][] = [];
  for (const [name, entry] of Object.entries(value)) {
    const text = dumps(entry, sortKeys, [item, key]);
    if (text !== undefined) members.push([name, text]);
  }
  if (sortKeys) members.sort(byKey);
  return `{${members.map(([name, text]) => `${JSON.stringify(name)}${key}${text}`).join(item)}}`;
}
