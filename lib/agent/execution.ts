import type { ExecutionContext } from 'hono';

/**
 * A Worker's execution context as the agent runtime takes it: Hono's type for it, which is what a route's
 * `c.executionCtx` is, and which a Worker's own `ctx` (queue, cron) also satisfies.
 */
export type AgentExecutionContext = ExecutionContext;
