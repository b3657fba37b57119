import { describe, expect, it } from 'vitest';
import { accountKey, call, createAgent, json, logLine, putCode, storageValue } from './helpers.ts';

/**
 * The hostile review's exploit (issue 22, findings 1, 2 and 6) as a hosted agent: with the platform's own calls
 * allowed to reach private hosts (ALLOW_PRIVATE_URLS=true, as `npm start` runs), the agent's code fetches the
 * stack's loopback ports, an inspector's /json, and public URLs that redirect to loopback or carry credentials.
 * The test project's internet (vitest.config.ts) answers `reached <host>` from every non-public host.
 */
const PROBES = [
  'http://127.0.0.1:8787/health',
  'http://127.0.0.1:8788/health',
  'http://127.0.0.1:8789/health',
  'http://127.0.0.1:9335/json',
  'http://localhost:9331/json/list',
  'http://[::1]:8787/',
  'http://10.0.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://0x7f000001:8787/',
  'http://admin:secret@127.0.0.1:8787/',
  'http://redirect.example.com/to-loopback',
  'http://redirect.example.com/to-credentials',
  'http://redirect.example.com/to-redirect',
];

const EXPLOIT = {
  'agent.ts': `import { defineAgent } from 'rendezvous/agent';
import { connect } from 'cloudflare:sockets';
const agent = defineAgent({ name: 'exploit' });
const PROBES = ${JSON.stringify(PROBES)};
agent.onStartup(async (ctx) => {
  const answers = {};
  for (const url of PROBES) {
    try {
      const response = await fetch(url);
      answers[url] = response.status + ' ' + (await response.text()).slice(0, 300);
    } catch (error) {
      answers[url] = 'threw ' + String(error).slice(0, 80);
    }
  }
  try {
    const socket = new WebSocket('ws://127.0.0.1:9335/devtools/page/1');
    answers.websocket = await new Promise((resolve) => {
      socket.addEventListener('open', () => resolve('open'));
      socket.addEventListener('error', () => resolve('error'));
      socket.addEventListener('close', () => resolve('closed'));
    });
  } catch (error) {
    answers.websocket = 'threw ' + String(error).slice(0, 80);
  }
  try {
    const socket = connect({ hostname: '127.0.0.1', port: 9335 });
    answers.socket = await socket.opened.then(() => 'open', (error) => 'refused ' + String(error).slice(0, 80));
  } catch (error) {
    answers.socket = 'threw ' + String(error).slice(0, 80);
  }
  await ctx.storage.set('answers', answers);
});
export default agent;
`,
};

const PUBLIC_FETCHER = {
  'agent.ts': `import { defineAgent } from 'rendezvous/agent';
const agent = defineAgent({ name: 'public fetcher' });
agent.onStartup(async (ctx) => {
  const direct = await fetch('http://public.example.com/page');
  const redirected = await fetch('http://redirect.example.com/to-public');
  const posted = await fetch('http://public.example.com/form', { method: 'POST', body: 'x=1' });
  const manual = await fetch('http://redirect.example.com/to-public', { redirect: 'manual' });
  await ctx.storage.set('answers', [
    direct.status + ' ' + (await direct.text()),
    redirected.status + ' ' + (await redirected.text()) + ' ' + redirected.url,
    posted.status + ' ' + (await posted.text()),
    manual.status + ' ' + manual.headers.get('location'),
  ]);
});
export default agent;
`,
};

async function startedWith(files: Record<string, string>): Promise<{ key: string; address: string }> {
  const key = await accountKey();
  const agent = await createAgent(key, 'egress probe');
  await putCode(key, agent.address, files);
  await json(call(key, 'POST', `/v1/hosting/agents/${agent.address}/start`));
  return { key, address: agent.address };
}

async function answersOf(key: string, address: string): Promise<unknown> {
  let stored: string | null = null;
  await expect.poll(async () => (stored = await storageValue(key, address, 'answers')), { timeout: 20_000, interval: 250 }).not.toBeNull();
  return JSON.parse(stored!);
}

describe("hosted code's egress is its own policy, whatever ALLOW_PRIVATE_URLS says for the platform", () => {
  it("the review's exploit reaches no loopback, private or inspector port, directly or through a redirect", async () => {
    const { key, address } = await startedWith(EXPLOIT);
    const answers = (await answersOf(key, address)) as Record<string, string>;
    for (const url of PROBES) expect(answers[url], url).toMatch(/^403 /);
    expect(JSON.stringify(answers)).not.toContain('reached');
    expect(answers.websocket).not.toBe('open');
    expect(answers.socket).not.toBe('open');
    expect(answers['http://redirect.example.com/to-loopback']).toContain('127.0.0.1:9335');
    expect(answers['http://redirect.example.com/to-credentials']).toContain('credentials');
    expect((await logLine(key, address, 'outbound fetch refused')).log_level).toBe('warn');
  });

  it('public hosts still answer, and a redirect between public hosts is followed (or not, with `redirect: manual`)', async () => {
    const { key, address } = await startedWith(PUBLIC_FETCHER);
    expect(await answersOf(key, address)).toEqual([
      '200 public GET /page',
      '200 public GET /landed http://public.example.com/landed',
      '200 public POST /form',
      '302 http://public.example.com/landed',
    ]);
  });
});
