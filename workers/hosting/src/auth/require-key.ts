import { createMiddleware } from 'hono/factory';
import { bearerToken } from '../../../../lib/auth/tokens.ts';
import type { HostingApp } from '../app.ts';
import { detail } from '../http/detail.ts';

/** The registry's `KeyService` entrypoint as this Worker calls it over the REGISTRY service binding (RPC). */
type KeyCheck = { ok: true; keyId: string; accountId: string } | { ok: false; status: 401 | 403; message: string };
interface KeyService {
  authenticate(token: string, permission: 'hosting'): Promise<KeyCheck>;
}

/**
 * Every hosting call but submit needs `Authorization: Bearer <key>` for a registry key with the `hosting`
 * permission; the registry answers over RPC, so a revoked key is refused here at once.
 */
export const requireHostingKey = createMiddleware<HostingApp>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) return detail(c, 401, 'missing API key: send Authorization: Bearer <API_KEY>');
  const registry = c.env.REGISTRY as unknown as KeyService;
  const check = await registry.authenticate(token, 'hosting').catch((error: unknown) => {
    console.error('key service unreachable', error);
    return null;
  });
  if (!check) return detail(c, 503, 'the key service is unreachable; try again shortly');
  if (!check.ok) return detail(c, check.status, check.message);
  c.set('accountId', check.accountId);
  await next();
});

/** Without the Worker Loader binding no hosted code can run: 501, saying how to enable it. */
export const requireLoader = createMiddleware<HostingApp>(async (c, next) => {
  if (!c.env.LOADER) {
    return detail(c, 501, 'hosting needs the Worker Loader (Dynamic Workers): add a [[worker_loaders]] binding named LOADER (docs/deploy.md)');
  }
  await next();
});
