import { base64 } from '@scure/base';

/**
 * Seeds and secret values are stored sealed (AES-GCM) under a key derived from the platform secret
 * HOSTING_SEED_KEY: a copy of the database alone reveals none of them. Sealed text: base64(iv ‖ ciphertext).
 */
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest('SHA-256', new TextEncoder().encode(`rendezvous hosting vault\u0000${secret}`))
      .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
    keys.set(secret, key);
  }
  return key;
}

function platformSecret(secret: string | undefined): string {
  if (!secret) throw new Error('HOSTING_SEED_KEY is not set: the hosting Worker cannot seal or open seeds');
  return secret;
}

export async function seal(secret: string | undefined, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyOf(platformSecret(secret)), new TextEncoder().encode(plain));
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return base64.encode(out);
}

export async function open(secret: string | undefined, sealedText: string): Promise<string> {
  const bytes = base64.decode(sealedText);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, 12) },
    await keyOf(platformSecret(secret)),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}

/** A fresh identity seed: 32 random bytes, hex. */
export function newSeed(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
