import { ApiError } from '../../../../lib/http/api-error.ts';

/**
 * D1's Sessions API bookmarks carried between a client's requests (docs/decisions/0205): a response carries
 * `x-d1-bookmark`, the client sends it back, and the next request's reads start from it, so a client that just
 * wrote reads its write even from a replica. One database: the header is D1's bookmark as the Sessions API
 * documents it. Several shards: one bookmark per shard, comma-separated in shard order, empty for a shard the
 * client has not touched.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** D1's bookmark: four hex groups (8-8-8-32), ordered as its commits are when compared as text. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const BOOKMARK_LENGTH = 59;
/** Far above any shard count a registry binds; the header stays under 4 KB. */
const MAX_SHARDS = 64;

/**
 * The client's bookmarks by shard; none without the header. A malformed header is a 400: a bookmark D1 does
 * not know would fail the request's first read instead. Entries past the registry's shards (a header from
 * before a resharding shrank it) are not read.
 */
export function parseBookmarks(header: string | undefined): (string | null)[] {
  if (header === undefined || header.trim() === '') return [];
  const entries = header.length <= MAX_SHARDS * (BOOKMARK_LENGTH + 1) ? header.split(',').map((entry) => entry.trim()) : null;
  if (!entries || entries.length > MAX_SHARDS || entries.some((entry) => entry !== '' && !BOOKMARK.test(entry)))
    throw new ApiError({
      status: 400,
      message: `malformed ${BOOKMARK_HEADER}: send back the header of an earlier response (D1 bookmarks, one per shard, comma-separated)`,
    });
  return entries.map((entry) => entry || null);
}

/** The header for a response: null when no shard has a bookmark. */
export function formatBookmarks(bookmarks: readonly (string | null)[]): string | null {
  return bookmarks.some(Boolean) ? bookmarks.map((bookmark) => bookmark ?? '').join(',') : null;
}

/** The newest of some bookmarks of one database: D1's bookmarks order as text. */
export function newestBookmark(bookmarks: readonly (string | null)[]): string | null {
  return bookmarks.reduce<string | null>(
    (newest, bookmark) => (bookmark !== null && (newest === null || bookmark > newest) ? bookmark : newest),
    null,
  );
}
