/**
 * Per isolate: EDGAR documents already read and checked (null: EDGAR answered 404), by URL, for as long as
 * the Cache API keeps documents.
 * Every question reads the ticker map and its companies' facts; reading them from the Cache API again costs
 * a cache lookup, a JSON parse and a schema check each time (the SEC's company facts run to megabytes).
 * Bounded by the size of the documents' text; the oldest go first.
 */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;

const documents = new Map<string, { value: unknown; until: number; bytes: number }>();
let heldBytes = 0;

/** The document kept for `url`: its checked value, null when EDGAR does not have it, undefined when not kept. */
export function parsedDocument(url: string, now = Date.now()): unknown {
  const entry = documents.get(url);
  if (!entry) return undefined;
  if (entry.until > now) return entry.value;
  forget(url);
  return undefined;
}

/** Keeps a checked document for `ttlSeconds`; callers share it, so nobody may change it. */
export function keepParsedDocument(url: string, value: unknown, textBytes: number, ttlSeconds: number, now = Date.now()): void {
  if (ttlSeconds <= 0 || textBytes > MAX_TEXT_BYTES) return;
  forget(url);
  for (const [oldest] of documents) {
    if (heldBytes + textBytes <= MAX_TEXT_BYTES) break;
    forget(oldest);
  }
  documents.set(url, { value, until: now + ttlSeconds * 1000, bytes: textBytes });
  heldBytes += textBytes;
}

function forget(url: string): void {
  const entry = documents.get(url);
  if (!entry) return;
  documents.delete(url);
  heldBytes -= entry.bytes;
}
