/** One sealing key: its id (named in sealed text) and the AES-GCM key derived from its secret. */
export interface SealingKey {
  id: string;
  key: Promise<CryptoKey>;
}

/** Ids are short lowercase names: they are written into every sealed text and matched with SQL LIKE. */
const KEY_ID = /^[a-z0-9]{1,16}$/;

/** The id under which text sealed before the vault (no prefix) opens. */
export const LEGACY_KEY_ID = 'v1';

/**
 * HOSTING_SEED_KEYS: `id:secret` pairs, comma-separated, the current key first and retired ones after. Each AES key
 * is derived from its secret as the hosting Worker derived HOSTING_SEED_KEY's, so the old secret, named v1, opens old text.
 */
export function parseKeys(setting: string | undefined): SealingKey[] {
  const pairs = (setting ?? '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pairs.length === 0) throw new Error('HOSTING_SEED_KEYS is not set: the vault cannot seal or open');
  const seen = new Set<string>();
  return pairs.map((pair) => {
    const colon = pair.indexOf(':');
    const id = pair.slice(0, colon);
    const secret = pair.slice(colon + 1);
    if (colon < 0 || !KEY_ID.test(id) || !secret)
      throw new Error('HOSTING_SEED_KEYS holds an entry that is not `id:secret` (id: a-z, 0-9)');
    if (seen.has(id)) throw new Error(`HOSTING_SEED_KEYS names the key id ${id} twice`);
    seen.add(id);
    return { id, key: deriveKey(secret) };
  });
}

function deriveKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle
    .digest('SHA-256', new TextEncoder().encode(`rendezvous hosting vault\u0000${secret}`))
    .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
}
