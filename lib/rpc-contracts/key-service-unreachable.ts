import { ApiError } from '../http/api-error.ts';

/** How long a caller is told to wait before trying again: the registry is usually back within seconds. */
const RETRY_AFTER_SECONDS = '5';

/**
 * Every Worker's one answer when the registry's KeyService cannot be reached: 503 `auth_unavailable` with a
 * retry-after. The caller's request may be fine; nothing is known of its key, so it is neither served nor
 * refused as unauthorized.
 */
export function keyServiceUnreachable(cause: unknown): ApiError {
  console.error('key service unreachable', cause);
  return new ApiError({
    status: 503,
    message: 'the key service is unreachable; try again shortly',
    code: 'auth_unavailable',
    headers: { 'retry-after': RETRY_AFTER_SECONDS },
    cause,
  });
}
