import { beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, isPrivateOrLoopbackUrl } from '../../lib/net/index.ts';
import { agentsRegistered, addressOf, postJson, settle } from './helpers.ts';

beforeAll(agentsRegistered);

describe('lib/net outbound URL policy', () => {
  it.each([
    'http://localhost:5001/webhook',
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://router/',
    'http://db.internal/',
    'http://printer.local/',
    'http://bob.test/webhook',
  ])('%s is private or loopback', (url) => {
    expect(isPrivateOrLoopbackUrl(url)).toBe(true);
    expect(checkOutboundUrl(url, { allowPrivate: false })).toMatchObject({ ok: false, reason: 'private_address' });
    expect(checkOutboundUrl(url, { allowPrivate: true }).ok).toBe(true);
  });

  it.each(['https://agents.example.com/webhook', 'http://93.184.216.34/', 'http://[2606:4700::1111]/', 'http://172.32.0.1/'])('%s is public', (url) => {
    expect(isPrivateOrLoopbackUrl(url)).toBe(false);
    expect(checkOutboundUrl(url, { allowPrivate: false }).ok).toBe(true);
  });

  it('refuses schemes other than http(s), credentials in URLs and what is not a URL', () => {
    expect(checkOutboundUrl('ftp://example.com/x', { allowPrivate: true })).toMatchObject({ ok: false, reason: 'scheme_not_allowed' });
    expect(checkOutboundUrl('file:///etc/passwd', { allowPrivate: true })).toMatchObject({ ok: false, reason: 'scheme_not_allowed' });
    expect(checkOutboundUrl('https://user:pw@example.com/', { allowPrivate: true })).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(checkOutboundUrl('/webhook', { allowPrivate: true })).toMatchObject({ ok: false, reason: 'invalid_url' });
  });
});

describe('an agent deployed without ALLOW_PRIVATE_URLS does not call private addresses', () => {
  it('carol’s sendAndReceive to bob’s private webhook fails with the reason, and bob sees nothing', async () => {
    const session = crypto.randomUUID();
    const { reply, status } = await postJson<{ reply: unknown; status: { status: string; detail: string; endpoint: string } }>('/test/carol/send-and-receive', { to: 'bob', text: 'let me in', session });
    expect(reply).toBeNull();
    expect(status).toMatchObject({ status: 'failed', endpoint: 'http://bob.test/bob/webhook', detail: expect.stringContaining('loopback or private') });
    expect(await settle({ agent: 'bob', session }, 0)).toEqual([]);
  });

  it('a queued message from carol to a private webhook is given up at once, not retried', async () => {
    const { session } = await postJson<{ session: string }>('/test/carol/send', { to: 'bob', text: 'let me in' });
    const [letter] = await settle({ agent: 'carol', kind: 'dead_letter', session }, 1, 5_000);
    expect(letter!.payload).toEqual({ target: await addressOf('bob'), reason: expect.stringContaining('loopback or private') });
    expect(await settle({ agent: 'bob', session }, 0)).toEqual([]);
  });
});
