/** The stack's services in the spec's start order, with their standard ports. */
export const DEFAULT_PORTS = {
  registry: 8787,
  chat: 8788,
  edgar: 5010,
  specialist: 5008,
  router: 5001,
  vault: 8790,
  hosting: 8789,
  client: 5174,
};

export type Ports = typeof DEFAULT_PORTS;
export type ServiceName = keyof Ports;

/** Devtools ports of the wrangler dev processes; each needs its own (the default 9229 would collide). */
export const INSPECTOR_PORTS: Record<'registry' | 'chat' | 'specialist' | 'router' | 'vault' | 'hosting', number> = {
  registry: 9331,
  chat: 9332,
  specialist: 9333,
  router: 9334,
  hosting: 9335,
  vault: 9336,
};
