import { bech32 } from '@scure/base';

/**
 * What an agent address is: bech32 `agent1…` of a 33-byte compressed secp256k1 public key, as uagents-core
 * writes it. Here, not in lib/identity, so that schemas import nothing of the project; lib/identity builds on it.
 */

/** Bech32 prefix of agent addresses, as in uagents-core. */
export const ADDRESS_PREFIX = 'agent';
/** A compressed secp256k1 public key. */
const PUBLIC_KEY_LENGTH = 33;

function describeBech32Error(address: string, error: Error): string {
  if (/checksum/i.test(error.message)) return 'address checksum does not match (a character is wrong or missing)';
  if (!address.includes('1')) return 'address is not bech32: it has no "1" between prefix and data';
  return `address is not valid bech32 (${error.message})`;
}

/** An address's public key, or why the text is not an address. */
export function parseAddress(address: string): { publicKey: Uint8Array } | { problem: string } {
  if (typeof address !== 'string' || address.length === 0) return { problem: 'address is empty' };
  let prefix: string;
  let publicKey: Uint8Array;
  try {
    // bech32 without BIP-173's 90-character cap, as lib/identity decodes signatures.
    const decoded = bech32.decode(address as `${string}1${string}`, false);
    prefix = decoded.prefix;
    publicKey = bech32.fromWords(decoded.words);
  } catch (error) {
    return { problem: describeBech32Error(address, error as Error) };
  }
  if (prefix !== ADDRESS_PREFIX) return { problem: `address prefix is "${prefix}", expected "${ADDRESS_PREFIX}"` };
  if (publicKey.length !== PUBLIC_KEY_LENGTH) {
    return { problem: `address holds ${publicKey.length} bytes, expected a ${PUBLIC_KEY_LENGTH}-byte public key` };
  }
  return { publicKey };
}

export function isValidAddress(address: string): boolean {
  return 'publicKey' in parseAddress(address);
}
