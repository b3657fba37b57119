/**
 * The registry's ownership challenge: `rendezvous:<uuid>:<uuid>`. The agent signs sha256 of its UTF-8 text
 * (what the Python SDK does with any challenge). The fixed `rendezvous:` prefix is the domain separation: an
 * envelope's signed text starts with its sender's `agent1…` address, so a challenge of this form can never
 * be an envelope digest, and an agent that signs only this form cannot be made to sign a forged envelope.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const CHALLENGE_FORM = new RegExp(`^rendezvous:${UUID}:${UUID}$`);

export function newChallenge(): string {
  return `rendezvous:${crypto.randomUUID()}:${crypto.randomUUID()}`;
}

export function isRegistryChallenge(text: string): boolean {
  return CHALLENGE_FORM.test(text);
}
