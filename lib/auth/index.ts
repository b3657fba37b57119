export { type AuthenticatedKey, type AuthResult, authenticate } from './authenticate.ts';
export { accountExists, createAccount, createKey, type KeyChanges, listKeys, liveKeyExists, type NewKey, revokeKey, updateKey } from './key-store.ts';
export { type AuthFailure, type KeyEnv, platformAuthFailure, requireKey } from './middleware.ts';
export { bearerToken, sameSecret } from './tokens.ts';
export { BatchedKeyCheck, type BatchedKeyEnv, KeyRefused, requireKeyInBatch } from './batched-key.ts';
