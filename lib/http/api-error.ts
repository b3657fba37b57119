import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../../schemas/http.ts';

export interface ApiErrorOptions {
  status: ContentfulStatusCode;
  /** Shown to the caller: says what went wrong and, where it can, what to do. */
  message: string;
  /** OpenAI's error type; by default derived from the status (`typeForStatus`). */
  type?: string;
  /** The request field at fault. */
  param?: string | null;
  /** A stable machine-readable reason callers may branch on. */
  code?: string | null;
  /** Headers the answer carries (retry-after, rate limits). */
  headers?: HeadersInit;
  /** What caused it, for the log; never shown to the caller. */
  cause?: unknown;
}

/** OpenAI's error type for a status, used when an error names none. */
function typeForStatus(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status < 500) return 'invalid_request_error';
  return 'server_error';
}

/**
 * The platform's one error type: thrown (or returned) wherever a request is refused, and rendered by the
 * app's `onError` in the dialect of the route (lib/http/errors.ts). A Hono `HTTPException`, so Hono and
 * its middleware treat it as the answer it is.
 */
export class ApiError extends HTTPException {
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Headers;

  constructor(options: ApiErrorOptions) {
    super(options.status, { message: options.message, cause: options.cause });
    this.name = 'ApiError';
    this.type = options.type ?? typeForStatus(options.status);
    this.param = options.param ?? null;
    this.code = options.code ?? null;
    this.headers = new Headers(options.headers);
  }

  /** Without an `onError` (Hono's default handler), the platform's body. */
  override getResponse(): Response {
    return Response.json(platformErrorBody(this), { status: this.status, headers: this.headers });
  }
}

/** The platform's error body, OpenAI's shape: `{error: {message, type, param, code}}`. */
export function platformErrorBody(error: ApiError): ErrorBody {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}

/**
 * Any thrown value as an ApiError: itself; another HTTPException (Hono's own) with its status and message;
 * anything else a logged 500 that tells the caller nothing of the internals.
 */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    return new ApiError({ status: error.status, message: error.message || 'request failed', type: 'invalid_request_error', cause: error });
  }
  console.error('unhandled error', error);
  return new ApiError({ status: 500, message: 'internal error', type: 'server_error', cause: error });
}
