import { createMiddleware } from 'hono/factory';
import { bearerToken } from '../../../../lib/api-keys/key-token.ts';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { keyServiceUnreachable } from '../../../../lib/rpc-contracts/key-service-unreachable.ts';
import type { HostingApp } from '../app.ts';

/**
 * Every hosting call but submit needs `Authorization: Bearer <key>` for a registry key with the `hosting`
 * permission; the registry answers over RPC (KeyServiceContract), so a revoked key is refused here at once.
 */
export const requireHostingKey = createMiddleware<HostingApp>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw new ApiError({ status: 401, message: 'missing API key: send Authorization: Bearer <API_KEY>' });
  const check = await c.env.REGISTRY.authenticate(token, 'hosting').catch((error: unknown) => {
    throw keyServiceUnreachable(error);
  });
  if (!check.ok) throw new ApiError({ status: check.status, message: check.message });
  c.set('accountId', check.accountId);
  await next();
});

/** Without the Worker Loader binding no hosted code can run: 501, saying how to enable it. */
export const requireLoader = createMiddleware<HostingApp>(async (c, next) => {
  if (!c.env.LOADER) {
    throw new ApiError({
      status: 501,
      message: 'hosting needs the Worker Loader (Dynamic Workers): add a [[worker_loaders]] binding named LOADER (docs/deploy.md)',
    });
  }
  await next();
});
