import { exports } from 'cloudflare:workers';

/** Props of the loopback bindings a hosted agent's Dynamic Worker gets: the address it acts as, and whether it runs Python. */
export interface AgentProps {
  address: string;
  python: boolean;
}

/**
 * This Worker's own entrypoints as loopback bindings (`exports`, typed from the main module by the
 * generated GlobalProps), bound to one hosted agent by props.
 */
export function agentBindings(address: string, python: boolean) {
  const props = { address, python };
  return { host: exports.HostApi({ props }), outbound: exports.GuestOutbound({ props }) };
}
