import { Hono } from 'hono';
import { ApiError } from '../../../../lib/http/api-error.ts';
import { isValidAddress } from '../../../../schemas/address.ts';
import { handleParamSchema, resolveParamSchema } from '../../../../schemas/registry.ts';
import { toAlmanacRecord } from '../agents/record.ts';
import { findAlmanacRow } from '../agents/store.ts';
import type { RegistryApp } from '../app.ts';
import { speaksDetail } from '../http/detail.ts';
import { handleClaimant } from '../agents/handle-claims.ts';

type Identifier = { kind: 'address'; address: string } | { kind: 'handle'; handle: string } | { kind: 'domain'; domain: string };

/**
 * What an identifier names, as uagents-core's `parse_identifier` reads one: `[prefix://][domain/]address`, or
 * a handle (`@` optional), or a bare domain (has a dot). Null when it is none of these.
 */
function parseIdentifier(text: string): Identifier | null {
  const withoutPrefix = text.replace(/^(agent|test-agent):\/\//, '');
  const last = withoutPrefix.split('/').pop() ?? '';
  if (isValidAddress(last)) return { kind: 'address', address: last };
  if (withoutPrefix.includes('/')) return null;
  const handle = handleParamSchema.safeParse({ handle: withoutPrefix.replace(/^@/, '') });
  if (handle.success) return { kind: 'handle', handle: handle.data.handle };
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(withoutPrefix)) return { kind: 'domain', domain: withoutPrefix.toLowerCase() };
  return null;
}

/**
 * `GET /v2/almanac/resolve/{identifier}`, as the Agentverse CLI's `resolve` calls it: the almanac record of the
 * agent an address, a handle or a domain names; 404 when nothing holds it, 400 when it is no identifier. Public,
 * like the almanac: a handle resolves only to a listed agent. No domains are assigned on this registry.
 */
export function almanacResolveRoutes() {
  const app = new Hono<RegistryApp>();
  app.use('*', speaksDetail);

  // `{.+}`: an identifier may hold slashes (`agent://domain/agent1…`); it is read from the raw path below.
  app.get('/resolve/:identifier{.+}', async (c) => {
    const encoded = c.req.path.slice(c.req.path.indexOf('/resolve/') + '/resolve/'.length);
    let raw = '';
    try {
      raw = decodeURIComponent(encoded);
    } catch {
      // Not percent-encoded text: no identifier.
    }
    const param = resolveParamSchema.safeParse({ identifier: raw });
    const identifier = param.success ? parseIdentifier(param.data.identifier) : null;
    if (!identifier) throw new ApiError({ status: 400, message: 'malformed identifier: expected an agent address, a handle or a domain' });
    if (identifier.kind === 'domain') throw new ApiError({ status: 404, message: `no agent holds the domain ${identifier.domain}` });
    const shards = c.var.shards();
    const address = identifier.kind === 'address' ? identifier.address : await handleClaimant(shards.homeReader(), identifier.handle);
    const row = address ? await findAlmanacRow(shards.ownerReader(address), address) : null;
    const listed = row !== null && row.account_id !== null && row.is_public === 1;
    // A claim is kept by its agent's row: a failed write may leave one that no agent holds.
    const held = identifier.kind !== 'handle' || row?.handle === identifier.handle;
    if (!row || !held || (identifier.kind === 'handle' && !listed))
      throw new ApiError({ status: 404, message: `${raw} is not assigned to any agent` });
    return c.json(toAlmanacRecord(row));
  });

  return app;
}
