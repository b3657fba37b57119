import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../http/api-error.ts';
import type { AgentContext } from './types.ts';

/**
 * A custom route's answer (spec §8): the handler returns the response object, which must match the
 * response model. A mismatch is the agent's bug, not the client's: 500, logged with the first issue.
 */
export async function answerWith<Env>(c: Context, response: z.ZodType, produce: () => unknown, ctx: AgentContext<Env>): Promise<Response> {
  const value = await produce();
  const checked = response.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    console.error(
      `agent ${ctx.name}: ${c.req.method} ${c.req.path} returned a value that does not match its response model: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
    );
    throw new ApiError({ status: 500, message: 'the route produced a response that does not match its model', code: 'invalid_response' });
  }
  return c.json(checked.data as Record<string, unknown>);
}
