import { Identity } from '../identity/index.ts';
import {
  challengeResponseSchema,
  detailErrorSchema,
  type RegistrationRequest,
  type RegistrationResponse,
  registrationResponseSchema,
} from '../../schemas/registry.ts';
import { isRegistryChallenge } from './challenge.ts';
import { signVerifiableModel } from './signed-model.ts';

/**
 * Registration as the Python SDKs perform it (test/fixtures/interop/registration.md), for our own agents and
 * the start command: existence check, ownership challenge and signed proof, agent details, signed status.
 */
export interface RegisterAgentOptions {
  seed: string;
  index?: number;
  /** The agent's public webhook URL. */
  url: string;
  /** Registry API key with write permission (and read, for the existence check). */
  token: string;
  title: string;
  readme: string;
  /** The registry base URL, e.g. http://localhost:8787. */
  registryUrl: string;
  agentType?: RegistrationRequest['agent_type'];
  protocols?: string[];
  handle?: string;
  description?: string;
  /** Send the signed "active" status update afterwards (the SDK does when asked to). Default true. */
  active?: boolean;
  fetch?: typeof fetch;
}

export interface RegisteredAgent extends RegistrationResponse {
  address: string;
}

export class RegistryError extends Error {
  override name = 'RegistryError';
  constructor(
    readonly step: string,
    readonly status: number,
    detail: string,
  ) {
    super(`registry ${step} failed (${status}): ${detail}`);
  }
}

async function failure(step: string, response: Response): Promise<RegistryError> {
  const text = await response.text();
  let message = text.slice(0, 500);
  try {
    const parsed = detailErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) message = parsed.data.detail;
  } catch {
    // Not JSON: keep the text.
  }
  return new RegistryError(step, response.status, message);
}

export async function registerAgent(options: RegisterAgentOptions): Promise<RegisteredAgent> {
  const doFetch = options.fetch ?? fetch;
  const base = options.registryUrl.replace(/\/+$/, '');
  const identity = Identity.fromSeed(options.seed, options.index ?? 0);
  const { address } = identity;
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };

  const existing = await doFetch(`${base}/v2/agents/${address}`, { headers });
  if (existing.status === 404) {
    await existing.body?.cancel();
    const issued = await doFetch(`${base}/v2/identity/${address}/challenge`, { headers });
    if (!issued.ok) throw await failure('challenge', issued);
    const { challenge } = challengeResponseSchema.parse(await issued.json());
    // Signing whatever a registry sends would make this agent a signing oracle (a challenge may be an envelope's signed text).
    if (!isRegistryChallenge(challenge)) {
      throw new RegistryError(
        'challenge',
        issued.status,
        'the registry sent a challenge not of the form rendezvous:<uuid>:<uuid>; not signed',
      );
    }
    const proof = await doFetch(`${base}/v2/identity`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ address, challenge, challenge_response: identity.sign(challenge) }),
    });
    if (!proof.ok) throw await failure('identity proof', proof);
    await proof.body?.cancel();
  } else if (!existing.ok) {
    throw await failure('lookup', existing);
  } else {
    await existing.body?.cancel();
  }

  const request = {
    address,
    name: options.title,
    handle: options.handle ?? null,
    url: options.url,
    agent_type: options.agentType ?? 'custom',
    profile: { description: options.description ?? '', readme: options.readme, avatar_url: '', banner_url: '', starter_prompts: [] },
    endpoints: [{ url: options.url, weight: 1 }],
    protocols: options.protocols ?? [],
    metadata: null,
  };
  const registered = await doFetch(`${base}/v2/agents`, { method: 'POST', headers, body: JSON.stringify(request) });
  if (!registered.ok) throw await failure('registration', registered);
  const body = registrationResponseSchema.parse(await registered.json());

  if (options.active ?? true)
    await updateAgentStatus({ seed: options.seed, index: options.index, active: true, registryUrl: base, fetch: doFetch });
  return { address, ...body };
}

/** The signed AgentStatusUpdate (no API key: the agent's signature is the credential). */
export async function updateAgentStatus(options: {
  seed: string;
  index?: number;
  active: boolean;
  registryUrl: string;
  fetch?: typeof fetch;
}): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  const identity = Identity.fromSeed(options.seed, options.index ?? 0);
  const update = signVerifiableModel(identity, {
    agent_identifier: identity.address,
    is_active: options.active,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const response = await doFetch(`${options.registryUrl.replace(/\/+$/, '')}/v1/almanac/agents/${identity.address}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(update),
  });
  if (!response.ok) throw await failure('status update', response);
  await response.body?.cancel();
}
