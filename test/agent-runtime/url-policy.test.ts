import { beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, isPrivateOrLoopbackUrl, policyFetch } from '../../lib/net/index.ts';
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
    // Trailing dots, single labels and reserved names in every spelling.
    'http://localhost./',
    'http://LOCALHOST../',
    'http://router./',
    'http://api.localhost./',
    'http://db.internal./',
    // IPv4 in decimal, octal, hex and short forms (the URL parser canonicalises them).
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://10.0x0.0.1/',
    // Reserved IPv4 ranges beyond RFC 1918.
    'http://198.18.0.1/',
    'http://198.19.255.254/',
    'http://192.0.0.8/',
    'http://192.0.2.1/',
    'http://198.51.100.7/',
    'http://203.0.113.9/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    // IPv6 that embeds or stands for IPv4, and other non-global IPv6.
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::a9fe:a9fe]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[2002:7f00:1::1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[2001:db8::1]/',
    'http://[::]/',
    'http://[fec0::1]/',
    'http://[ff02::1]/',
    'http://[100::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
  ])('%s is private or loopback', (url) => {
    expect(isPrivateOrLoopbackUrl(url)).toBe(true);
    expect(checkOutboundUrl(url, { allowPrivate: false })).toMatchObject({ ok: false, reason: 'private_address' });
    expect(checkOutboundUrl(url, { allowPrivate: true }).ok).toBe(true);
  });

  it.each([
    'https://agents.example.com/webhook',
    'https://agents.example.com./webhook',
    'http://93.184.216.34/',
    'http://[2606:4700::1111]/',
    'http://172.32.0.1/',
    'http://198.20.0.1/',
    'http://localhost.example.com/',
  ])('%s is public', (url) => {
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

describe('policyFetch: every hop passes the policy', () => {
  /** A network of canned answers by URL, recording each call. */
  function network(answers: Record<string, () => Response>) {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fake: typeof fetch = async (input, init) => {
      const url = String(input);
      calls.push({ url, init });
      const answer = answers[url];
      return answer ? answer() : new Response('not found', { status: 404 });
    };
    return { calls, fetch: fake };
  }
  const redirect =
    (location: string, status = 307) =>
    () =>
      new Response(null, { status, headers: { location } });
  const policy = { allowPrivate: false };

  it('never lets the runtime follow a redirect', async () => {
    const net = network({ 'https://public.example.com/hook': () => new Response('ok') });
    const result = await policyFetch('https://public.example.com/hook', { method: 'POST', body: 'x' }, { policy, fetch: net.fetch });
    expect(result.ok).toBe(true);
    expect(net.calls[0]!.init?.redirect).toBe('manual');
  });

  it('refuses a private first hop without calling it', async () => {
    const net = network({});
    expect(await policyFetch('http://[::127.0.0.1]/', {}, { policy, fetch: net.fetch })).toMatchObject({
      ok: false,
      reason: 'private_address',
    });
    expect(net.calls).toEqual([]);
  });

  it('a public URL that redirects to a private one is refused at that hop', async () => {
    const net = network({
      'https://public.example.com/hook': redirect('https://hop.example.com/next'),
      'https://hop.example.com/next': redirect('http://169.254.169.254/latest/meta-data'),
    });
    const result = await policyFetch(
      'https://public.example.com/hook',
      { method: 'POST', body: 'x' },
      { policy, fetch: net.fetch, maxRedirects: 5 },
    );
    expect(result).toMatchObject({ ok: false, reason: 'private_address', url: 'http://169.254.169.254/latest/meta-data' });
    expect(net.calls.map((call) => call.url)).toEqual(['https://public.example.com/hook', 'https://hop.example.com/next']);
  });

  it('with no redirects allowed, a redirect is answered as it came; otherwise at most maxRedirects are followed', async () => {
    const net = network({
      'https://a.example.com/': redirect('https://b.example.com/'),
      'https://b.example.com/': redirect('https://c.example.com/'),
    });
    const unfollowed = await policyFetch('https://a.example.com/', {}, { policy, fetch: net.fetch });
    expect(unfollowed.ok && unfollowed.response.status).toBe(307);
    const capped = await policyFetch('https://a.example.com/', {}, { policy, fetch: net.fetch, maxRedirects: 1 });
    expect(capped.ok && capped.url.href).toBe('https://b.example.com/');
  });

  it('307 replays the POST body; 303 continues as a GET without one', async () => {
    const net = network({
      'https://a.example.com/': redirect('/keep', 307),
      'https://a.example.com/keep': redirect('https://b.example.com/see', 303),
      'https://b.example.com/see': () => new Response('done'),
    });
    const result = await policyFetch(
      'https://a.example.com/',
      { method: 'POST', body: 'envelope' },
      { policy, fetch: net.fetch, maxRedirects: 3 },
    );
    expect(result.ok).toBe(true);
    expect(net.calls.map((call) => [call.url, call.init?.method, call.init?.body])).toEqual([
      ['https://a.example.com/', 'POST', 'envelope'],
      ['https://a.example.com/keep', 'POST', 'envelope'],
      ['https://b.example.com/see', 'GET', undefined],
    ]);
  });
});

describe('an agent deployed without ALLOW_PRIVATE_URLS does not call private addresses', () => {
  it('carol’s sendAndReceive to bob’s private webhook fails with the reason, and bob sees nothing', async () => {
    const session = crypto.randomUUID();
    const { reply, status } = await postJson<{ reply: unknown; status: { status: string; detail: string; endpoint: string } }>(
      '/test/carol/send-and-receive',
      { to: 'bob', text: 'let me in', session },
    );
    expect(reply).toBeNull();
    expect(status).toMatchObject({
      status: 'failed',
      endpoint: 'http://bob.test/bob/webhook',
      detail: expect.stringContaining('loopback or private'),
    });
    expect(await settle({ agent: 'bob', session }, 0)).toEqual([]);
  });

  it('a queued message from carol to a private webhook is given up at once, not retried', async () => {
    const { session } = await postJson<{ session: string }>('/test/carol/send', { to: 'bob', text: 'let me in' });
    const [letter] = await settle({ agent: 'carol', kind: 'dead_letter', session }, 1, 5_000);
    expect(letter!.payload).toEqual({ target: await addressOf('bob'), reason: expect.stringContaining('loopback or private') });
    expect(await settle({ agent: 'bob', session }, 0)).toEqual([]);
  });
});
