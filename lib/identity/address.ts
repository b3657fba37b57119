import { bech32 } from '@scure/base';
import { ADDRESS_PREFIX, parseAddress } from '../../schemas/address.ts';

export { isValidAddress } from '../../schemas/address.ts';

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

/** Decodes an `agent1…` address to its compressed public key, or throws an AddressError saying why. */
export function decodeAddress(address: string): Uint8Array {
  const parsed = parseAddress(address);
  if ('problem' in parsed) throw new AddressError(parsed.problem);
  return parsed.publicKey;
}
