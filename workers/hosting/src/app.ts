/** The hosting Worker's Hono environment: its bindings, and the account the caller's key belongs to. */
export type HostingApp = { Bindings: HostingEnv; Variables: { accountId: string } };
