import { Hono } from 'hono';
import type { ChatApp } from '../auth/require-key.ts';
import { meterFor } from '../limits/meter.ts';
import { currentLimitHeaders } from './respond.ts';

/** GET /v1/usage: the calling key's recorded usage (tokens counted per completion), and its limits. */
export const usage = new Hono<ChatApp>().get('/usage', async (c) => {
  const key = c.get('key');
  const report = await meterFor(c.env, key.keyId).report(key.keyId, key.limits);
  return c.json(report, 200, await currentLimitHeaders(c));
});
