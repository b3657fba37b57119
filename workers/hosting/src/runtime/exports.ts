import { exports } from 'cloudflare:workers';

/** Props of the loopback bindings a hosted agent's Dynamic Worker gets: the address it acts as. */
export interface AgentProps {
  address: string;
}

/**
 * This Worker's own entrypoints as loopback bindings (`exports`, typed from the main module by the
 * generated GlobalProps), bound to one hosted agent by props.
 */
export function agentBindings(address: string) {
  return { host: exports.HostApi({ props: { address } }), outbound: exports.GuestOutbound({ props: { address } }) };
}
