export type { KeyCheck, KeyRevocationsContract, KeyServiceContract } from './key-service.ts';
export type { WordVectorsContract } from './word-vectors.ts';
