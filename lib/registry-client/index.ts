export { type Attestation, createAttestation, verifyAttestation } from './attestation.ts';
export { isRegistryChallenge, newChallenge } from './challenge.ts';
export { type RegisterAgentOptions, type RegisteredAgent, registerAgent, RegistryError, updateAgentStatus } from './register.ts';
export { addressOfIdentifier, signVerifiableModel, verifiableModelDigest, verifyVerifiableModel } from './signed-model.ts';
