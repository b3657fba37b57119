/**
 * JSON text as Python's `json.dumps` writes it (ensure_ascii): uAgents hashes and sends that text, so
 * writing the same bytes gives the same digests and payloads as the Python SDK.
 */
const NON_ASCII = /[\u007f-\uffff]/g;
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `json.dumps(value, separators=(",", ":"))`: compact, keys in their order, non-ASCII as \uXXXX. */
export function compactAsciiJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('value cannot be serialised as JSON');
  // Outside strings JSON text is ASCII already, so escaping the whole text only touches string contents.
  return text.replace(NON_ASCII, escapeChar);
}

/** `json.dumps(value, sort_keys=True)`: default separators, sorted keys, non-ASCII as \uXXXX. */
export function sortedPythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedPythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${sortedPythonJson(key)}: ${sortedPythonJson(item)}`).join(', ')}}`;
  }
  return compactAsciiJson(value);
}
