import { base64 } from '@scure/base';
import { LEGACY_KEY_ID, type SealingKey } from './keys.ts';

const SEALED = /^v2\.([a-z0-9]{1,16})\.([A-Za-z0-9+/=]+)$/;

export function prefixOf(key: SealingKey): string {
  return `v2.${key.id}.`;
}

export async function seal(current: SealingKey, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await current.key, new TextEncoder().encode(plain));
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return `${prefixOf(current)}${base64.encode(out)}`;
}

/** The key id and the bytes of sealed text; unprefixed text is the hosting Worker's from before the vault. */
function parseSealed(sealed: string): { id: string; bytes: Uint8Array } {
  const match = SEALED.exec(sealed);
  const [id, body] = match ? [match[1]!, match[2]!] : [LEGACY_KEY_ID, sealed];
  try {
    return { id, bytes: base64.decode(body) };
  } catch {
    throw new Error('not sealed text');
  }
}

export async function open(keys: SealingKey[], sealed: string): Promise<string> {
  const { id, bytes } = parseSealed(sealed);
  const key = keys.find((candidate) => candidate.id === id);
  if (!key) throw new Error(`sealed under key ${id}, which the vault no longer holds`);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await key.key, bytes.slice(12));
  return new TextDecoder().decode(plain);
}
