import pkg from '../../package.json' with { type: 'json' };

export const PLATFORM_VERSION: string = pkg.version;

/** Body of every Worker's `GET /health`. */
export function healthBody(name: string, extra: Record<string, unknown> = {}) {
  return { status: 'ok' as const, name, version: PLATFORM_VERSION, ...extra };
}
