import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes } from '@noble/hashes/utils.js';
import { base64, base64url } from '@scure/base';
import { encodeAddress, type Identity, verifyDigest } from '../identity/index.ts';

/**
 * Agent attestations (`Authorization: Agent <attestation>`, uagents-core): `attr:` + base64(pubkey33 ||
 * u64be(valid_from) || u64be(valid_to) || nonce32) + `:` + identity.sign(those 81 bytes).
 */
const PAYLOAD_LENGTH = 33 + 8 + 8 + 32;

export interface Attestation {
  address: string;
  validFrom: number;
  validTo: number;
  nonceHex: string;
}

type AttestationCheck = ({ ok: true } & Attestation) | { ok: false; message: string };

function u64be(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

export function createAttestation(identity: Identity, validSeconds = 60, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const payload = concatBytes(identity.publicKey, u64be(nowSeconds), u64be(nowSeconds + validSeconds), randomBytes(32));
  return `attr:${base64.encode(payload)}:${identity.signDigest(sha256(payload))}`;
}

function decodeBase64(text: string): Uint8Array | null {
  for (const codec of [base64, base64url]) {
    try {
      return codec.decode(text);
    } catch {
      // Try the next alphabet: Python's urlsafe_b64encode and b64encode both occur.
    }
  }
  return null;
}

/** Checks the signature and the validity window; the caller checks that the nonce is fresh. */
export function verifyAttestation(text: string, nowSeconds = Math.floor(Date.now() / 1000), leewaySeconds = 30): AttestationCheck {
  const match = /^attr:([A-Za-z0-9+/_=-]+):(sig1[02-9ac-hj-np-z]+)$/.exec(text.trim());
  if (!match) return { ok: false, message: 'attestation must be attr:<base64 payload>:<sig1… signature>' };
  const payload = decodeBase64(match[1]!);
  if (!payload || payload.length !== PAYLOAD_LENGTH)
    return { ok: false, message: `attestation payload must be ${PAYLOAD_LENGTH} bytes of base64` };
  let address: string;
  try {
    address = encodeAddress(payload.slice(0, 33));
  } catch {
    return { ok: false, message: 'attestation does not start with a public key' };
  }
  const view = new DataView(payload.buffer, payload.byteOffset);
  const validFrom = Number(view.getBigUint64(33));
  const validTo = Number(view.getBigUint64(41));
  if (!verifyDigest(address, sha256(payload), match[2]!))
    return { ok: false, message: 'attestation signature does not match its public key' };
  if (validTo < validFrom) return { ok: false, message: 'attestation validity window is empty' };
  if (nowSeconds + leewaySeconds < validFrom) return { ok: false, message: 'attestation is not valid yet' };
  if (nowSeconds - leewaySeconds > validTo) return { ok: false, message: 'attestation has expired' };
  const nonceHex = [...payload.slice(49)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return { ok: true, address, validFrom, validTo, nonceHex };
}
