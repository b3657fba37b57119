import { buildEnvelope, schemaDigest, serializeEnvelope } from '../../../lib/envelope/index.ts';
import { requestMessageSchema } from '../../../schemas/messages.ts';
import { almanacRecordSchema } from '../../../schemas/registry.ts';
import { routerIdentity } from './router-identity.ts';

const REQUEST_DIGEST = schemaDigest('RequestMessage', requestMessageSchema);

/** Sends a signed message to an agent's registered webhook (resolved through the registry's almanac). */
export async function sendToAgent(env: RouterEnv, message: { target: string; session: string; payload: unknown }): Promise<void> {
  const lookup = await fetch(new URL(`/v1/almanac/agents/${message.target}`, env.REGISTRY_URL));
  if (!lookup.ok) throw new Error(`almanac lookup of ${message.target} answered ${lookup.status}`);
  const record = almanacRecordSchema.parse(await lookup.json());
  const url = record.url ?? record.endpoints[0]?.url;
  if (!url) throw new Error(`${message.target} has no endpoint`);
  const envelope = buildEnvelope({
    sender: routerIdentity(env),
    target: message.target,
    session: message.session,
    schemaDigest: REQUEST_DIGEST,
    payload: message.payload,
    expires: Math.floor(Date.now() / 1000) + 300,
    nonce: BigInt(Date.now()),
  });
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: serializeEnvelope(envelope) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}
