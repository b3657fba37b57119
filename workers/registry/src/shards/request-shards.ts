import { createMiddleware } from 'hono/factory';
import type { RegistryApp } from '../app.ts';
import { agentShards } from './agent-shards.ts';
import { BOOKMARK_HEADER, formatBookmarks, parseBookmarks } from './bookmarks.ts';
import type { ShardSet } from './shard-set.ts';

/**
 * Every route's agent shards, one set per request (`c.var.shards()`), its sessions started from the client's
 * `x-d1-bookmark` (bookmarks.ts); the response carries the bookmarks its sessions reached. Made on first use:
 * a route that reads no agent opens no session and answers no bookmark. The header is read then too, inside the
 * route, so a malformed one is refused in the route's error shape (`{detail}` on the SDK-facing routes).
 */
export const requestShards = createMiddleware<RegistryApp>(async (c, next) => {
  let shards: ShardSet | undefined;
  c.set('shards', () => (shards ??= agentShards(c.env, parseBookmarks(c.req.header(BOOKMARK_HEADER)))));
  await next();
  const outgoing = shards && formatBookmarks(shards.bookmarks());
  if (outgoing) c.res.headers.set(BOOKMARK_HEADER, outgoing);
});
