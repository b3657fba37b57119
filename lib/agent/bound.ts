import { Identity } from '../identity/index.ts';
import { urlPolicyFromEnv, type UrlPolicy } from '../net/index.ts';
import type { AgentExecutionContext } from './execution.ts';
import { AlmanacResolver, type EndpointResolver } from './resolver.ts';
import type { AgentSettings } from './types.ts';

export interface AgentConfig<Env> {
  /** Names the agent in the outbox queue and in logs; unique within a Worker. */
  name: string;
  /** Registered title and README (stored byte for byte by the registry). */
  title: string;
  readme: string;
  description?: string;
  protocols?: string[];
  /** A short name users address the agent by (`@handle` in a chat); registered with the agent. */
  handle?: string;
  /** Path of the message endpoint within `agent.app` (default `/webhook`). */
  webhookPath?: string;
  settings: (env: Env, ctx: AgentExecutionContext) => AgentSettings;
}

/** What defineAgent was given, minus the handlers, with its defaults filled in. */
export type AgentDefinition<Env> = AgentConfig<Env> & { webhookPath: string };

/** An agent with its settings read from one env: what every operation works with. */
export interface BoundAgent<Env> {
  definition: AgentDefinition<Env>;
  env: Env;
  executionCtx: AgentExecutionContext;
  settings: AgentSettings;
  identity: Identity;
  resolver: EndpointResolver;
  fetch: typeof fetch;
  policy: UrlPolicy;
}

/** Deriving a key costs a scalar multiplication; an isolate derives each identity once. */
const identities = new Map<string, Identity>();

function identityOf(seed: string, index: number): Identity {
  const key = `${index}\u0000${seed}`;
  let identity = identities.get(key);
  if (!identity) {
    identity = Identity.fromSeed(seed, index);
    identities.set(key, identity);
  }
  return identity;
}

export function bindAgent<Env>(definition: AgentDefinition<Env>, env: Env, executionCtx: AgentExecutionContext): BoundAgent<Env> {
  const settings = definition.settings(env, executionCtx);
  if (!settings.seed) throw new Error(`agent ${definition.name}: no identity seed configured`);
  const doFetch = settings.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return {
    definition,
    env,
    executionCtx,
    settings,
    identity: identityOf(settings.seed, settings.index ?? 0),
    resolver: settings.resolver ?? new AlmanacResolver(settings.registryUrl, doFetch),
    fetch: doFetch,
    policy: urlPolicyFromEnv(settings.allowPrivateUrls ? 'true' : undefined),
  };
}
