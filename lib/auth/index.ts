export type { KeyCheck, KeyRevocationsContract, KeyServiceContract } from './key-rpc.ts';
export { bearerToken, sameSecret } from './tokens.ts';
