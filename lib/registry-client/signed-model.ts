import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Identity } from '../identity/index.ts';
import { verifyDigest } from '../identity/index.ts';
import { pythonJsonDumps } from '../envelope/python-json.ts';

/**
 * uagents-core `VerifiableModel` signing (AgentStatusUpdate, AgentRegistrationAttestation): the signature is
 * `sign_digest(sha256(json.dumps(model_dump() without "signature", sort_keys=True, compact)))`.
 */
export function verifiableModelDigest(fields: Record<string, unknown>): Uint8Array {
  return sha256(utf8ToBytes(pythonJsonDumps(fields, { sortKeys: true })));
}

export function signVerifiableModel<T extends Record<string, unknown>>(identity: Identity, fields: T): T & { signature: string } {
  return { ...fields, signature: identity.signDigest(verifiableModelDigest(fields)) };
}

export function verifyVerifiableModel(address: string, fields: Record<string, unknown>, signature: string): boolean {
  try {
    return verifyDigest(address, verifiableModelDigest(fields), signature);
  } catch {
    return false;
  }
}

/** `agent_identifier` may be `prefix://agent1…` or `prefix://domain/agent1…`; the address is the last part. */
export function addressOfIdentifier(identifier: string): string {
  const withoutPrefix = identifier.includes('://') ? identifier.slice(identifier.indexOf('://') + 3) : identifier;
  return withoutPrefix.split('/').pop() ?? '';
}
