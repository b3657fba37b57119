import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** A request the gateway answers with an error body (lib/http/errors.ts shape) and this status. */
export class ChatError extends Error {
  readonly param: string | null;
  readonly retryAfterSeconds: number | null;
  private readonly explicitType: string | undefined;

  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code: string,
    options: { param?: string | null; retryAfterSeconds?: number | null; type?: string } = {},
  ) {
    super(message);
    this.name = 'ChatError';
    this.param = options.param ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.explicitType = options.type;
  }

  get type(): string {
    if (this.explicitType) return this.explicitType;
    if (this.status === 429) return 'rate_limit_error';
    if (this.status === 401) return 'authentication_error';
    if (this.status === 403) return 'permission_error';
    if (this.status < 500) return 'invalid_request_error';
    return 'server_error';
  }
}
