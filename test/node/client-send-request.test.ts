/// <reference types="vite/client" />
// The client module reads VITE_ROUTER_URL from import.meta.env (vite's types).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendRequestBodySchema } from '../../schemas/router-api.ts';

describe('the reference client’s send-request', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('names each question with a new UUID request_id (answered only in its own slot) and polls by the id the router confirms', async () => {
    const bodies: unknown[] = [];
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const body = sendRequestBodySchema.parse(JSON.parse(text));
        bodies.push(body);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ status: 'request_sent', request_id: body.request_id }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      vi.stubEnv('VITE_ROUTER_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const { sendRequest } = await import('../../pages/src/ask/router-api.ts');
      const [first, second] = [await sendRequest('Apple revenue?'), await sendRequest('Apple revenue?')];
      const ids = bodies.map((body) => sendRequestBodySchema.parse(body).request_id);
      expect(ids[0]).toEqual(expect.any(String));
      expect(new Set(ids).size).toBe(2);
      expect([first, second]).toEqual(ids.map((requestId) => ({ kind: 'sent', requestId })));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
