import { bech32 } from '@scure/base';

/** Bech32 prefix of agent addresses, as in uagents-core. */
export const ADDRESS_PREFIX = 'agent';
/** A compressed secp256k1 public key. */
const PUBLIC_KEY_LENGTH = 33;

export class AddressError extends Error {
  override name = 'AddressError';
}

/** bech32 without BIP-173's 90-character cap: uAgents signatures run longer (see test/fixtures/interop). */
export function bech32Decode(text: string): { prefix: string; bytes: Uint8Array } {
  const { prefix, words } = bech32.decode(text as `${string}1${string}`, false);
  return { prefix, bytes: bech32.fromWords(words) };
}

export function bech32Encode(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), false);
}

export function encodeAddress(publicKey: Uint8Array): string {
  return bech32Encode(ADDRESS_PREFIX, publicKey);
}

function describeBech32Error(address: string, error: Error): string {
  if (/checksum/i.test(error.message)) return 'address checksum does not match (a character is wrong or missing)';
  if (!address.includes('1')) return 'address is not bech32: it has no "1" between prefix and data';
  return `address is not valid bech32 (${error.message})`;
}

/** Decodes an `agent1…` address to its compressed public key, or throws an AddressError saying why. */
export function decodeAddress(address: string): Uint8Array {
  if (typeof address !== 'string' || address.length === 0) throw new AddressError('address is empty');
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = bech32Decode(address);
  } catch (error) {
    throw new AddressError(describeBech32Error(address, error as Error));
  }
  if (decoded.prefix !== ADDRESS_PREFIX) {
    throw new AddressError(`address prefix is "${decoded.prefix}", expected "${ADDRESS_PREFIX}"`);
  }
  if (decoded.bytes.length !== PUBLIC_KEY_LENGTH) {
    throw new AddressError(`address holds ${decoded.bytes.length} bytes, expected a ${PUBLIC_KEY_LENGTH}-byte public key`);
  }
  return decoded.bytes;
}

export function isValidAddress(address: string): boolean {
  try {
    decodeAddress(address);
    return true;
  } catch {
    return false;
  }
}
