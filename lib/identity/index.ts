export { AddressError, decodeAddress, encodeAddress, isValidAddress } from './address.ts';
export { Identity, IdentityError, MAX_IDENTITY_INDEX } from './identity.ts';
export { decodeSignature, verifyDigest } from './signature.ts';
export { verificationKey } from './verification-key.ts';
