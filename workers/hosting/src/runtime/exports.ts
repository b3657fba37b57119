import { exports } from 'cloudflare:workers';
import type { HostCalls } from '../guest/protocol.ts';

/** Props of the loopback bindings a hosted agent's Dynamic Worker gets: the address it acts as. */
export interface AgentProps {
  address: string;
}

/**
 * This Worker's own entrypoints as loopback bindings (`exports`), bound to one hosted agent by props. The
 * generated Env does not type them, so the shape is stated once here.
 */
interface HostingExports {
  HostApi(options: { props: AgentProps }): Fetcher & HostCalls;
  GuestOutbound(options: { props: AgentProps }): Fetcher;
}

export function agentBindings(address: string) {
  const own = exports as unknown as HostingExports;
  return { host: own.HostApi({ props: { address } }), outbound: own.GuestOutbound({ props: { address } }) };
}
