import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/** CORS for `/api/*`: only the client's origin (CLIENT_ORIGIN) may call the router from a browser. */
export const clientCors: MiddlewareHandler<{ Bindings: RouterEnv }> = (c, next) =>
  cors({
    origin: (origin) => (origin === c.env.CLIENT_ORIGIN ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type'],
    maxAge: 600,
  })(c, next);
