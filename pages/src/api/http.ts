import type { ZodType } from 'zod';
import { errorBodySchema } from '../../../schemas/http.ts';
import { detailErrorSchema } from '../../../schemas/registry.ts';

/** A failed API call: the HTTP status and the message the Worker gave (platform `{error}` or SDK `{detail}` body). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text();
  // A proxy's HTML page or JSON of another shape means nothing to the user as source: the status says as much.
  const statusOnly = () =>
    new ApiError(response.status, `${new URL(response.url).origin} answered ${response.status} ${response.statusText}`.trim());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (!text.trim() || /^\s*</.test(text)) return statusOnly();
    return new ApiError(response.status, text.slice(0, 300));
  }
  const platform = errorBodySchema.safeParse(body);
  if (platform.success) return new ApiError(response.status, platform.data.error.message, platform.data.error.code);
  const sdk = detailErrorSchema.safeParse(body);
  if (sdk.success) return new ApiError(response.status, sdk.data.detail);
  return statusOnly();
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Sends a request and returns the response, or throws ApiError with the Worker's message when it is not 2xx. */
export async function send(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, `cannot reach ${new URL(url).origin} (${(error as Error).message})`);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

/** A JSON call whose answer is checked against the endpoint's schema. */
export async function requestJson<T>(url: string, init: RequestInit, schema: ZodType<T>): Promise<T> {
  const headers = { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers };
  const response = await send(url, { ...init, headers });
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success)
    throw new ApiError(
      response.status,
      `unexpected answer from ${new URL(url).pathname}: ${parsed.error.issues[0]?.message ?? 'invalid body'}`,
    );
  return parsed.data;
}
