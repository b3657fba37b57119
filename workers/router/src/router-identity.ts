import { Identity } from '../../../lib/identity/index.ts';

let cached: { seed: string; identity: Identity } | undefined;

/** The router's identity (index 0 of PRIMARY_AGENT_KEY), derived once per isolate. */
export function routerIdentity(env: RouterEnv): Identity {
  if (cached?.seed !== env.PRIMARY_AGENT_KEY) cached = { seed: env.PRIMARY_AGENT_KEY, identity: Identity.fromSeed(env.PRIMARY_AGENT_KEY, 0) };
  return cached.identity;
}
