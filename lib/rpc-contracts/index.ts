export type { KeyCheck, KeyRevocationsContract, KeyServiceContract } from './key-service.ts';
