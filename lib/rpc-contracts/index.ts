export type { KeyCheck, KeyRevocationsContract, KeyServiceContract } from './key-service.ts';
export type { SealingVaultContract } from './sealing-vault.ts';
export type { WordVectorsContract } from './word-vectors.ts';
