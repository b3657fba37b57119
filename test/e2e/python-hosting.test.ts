import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentLog, HostedAgent } from '../../schemas/hosting.ts';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { createFromTemplate, hostedAgentAddress, hostingStackWithBrowser, saveAndStart, sendGreeting } from './helpers/hosting-screen.ts';
import { documentedAgents } from '../support/documented-agents.ts';
import { Ping, Pong } from '../support/python-ping-pong.ts';

const PEER = resolve(import.meta.dirname, '../interop/ping_peer.py');

/** Agentverse's style, unchanged: the Ping → Pong template docs/python-agents.md shows, as a reader copies it. */
const AGENT = documentedAgents(readFileSync(resolve(import.meta.dirname, '../../docs/python-agents.md'), 'utf8'))[0]!;

/** Debian's pydantic 1.x and ecdsa, as the chat interop test needs them (scripts/test.sh installs them). */
function pythonWithPeerModules(): string | null {
  const check = 'import ecdsa, pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("1.") or hasattr(pydantic, "v1") else 1)';
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((candidate): candidate is string => !!candidate);
  return candidates.find((python) => spawnSync(python, ['-c', check], { stdio: 'ignore' }).status === 0) ?? null;
}

const python = pythonWithPeerModules();

describe('hosted Python agents on the running stack', () => {
  const running = hostingStackWithBrowser();

  const hostingKey = async () => {
    const adminToken = readDevVars(join(running.temp.dir, 'secrets', 'registry.dev.vars')).ADMIN_TOKEN!;
    return (
      await createDevKey({ registryUrl: running.temp.stack.urls.registry, adminToken, name: 'python hosting', permissions: ['hosting'] })
    ).key;
  };

  it.skipIf(!python)(
    'deployed through the hosting API and started, it pongs a uagents-core-style Python agent twice, with the stored count, digests and logs to match',
    async () => {
      const registry = running.temp.stack.urls.registry;
      const key = await hostingKey();
      const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const response = await fetch(`${registry}/v1/hosting${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        return JSON.parse(text) as T;
      };
      const agent = await call<HostedAgent>('POST', '/agents', { name: 'python ponger' });
      await call('PUT', `/agents/${agent.address}/code`, {
        code: JSON.stringify([{ name: 'agent.py', value: AGENT, language: 'python' }]),
      });
      expect(await call<HostedAgent>('POST', `/agents/${agent.address}/start`)).toMatchObject({ running: true, compiled: true });

      const run = spawnSync(
        python!,
        [PEER, '--seed', `python ping peer ${crypto.randomUUID()}`, '--submit', `${registry}/v1/hosting/submit`, '--target', agent.address],
        { encoding: 'utf8', timeout: 120_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
      );
      const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
      expect(result, run.stderr).toMatchObject({ event: 'done' });
      // The second answer carries the count the first one stored; Python's digests are uagents-core's and ours.
      expect(result.pongs).toEqual([
        { text: 'pong to ping 1', count: 1 },
        { text: 'pong to ping 2', count: 2 },
      ]);
      expect(result.digests).toEqual({ Ping: Ping.digest, Pong: Pong.digest });
      const storage = await call<{ key: string; value: string }>('GET', `/agents/${agent.address}/storage/pings`);
      expect(storage.value).toBe('2');
      const logs = (await call<AgentLog[]>('GET', `/agents/${agent.address}/logs/latest`)).map((line) => line.log_entry);
      expect(logs).toContain(`hello, my name is ponger and my address is ${agent.address}`);
      expect(logs).toContain(`ping number 1 from ${result.address}: ping 1`);
      expect(logs).toContain(`ping number 2 from ${result.address}: ping 2`);
    },
    180_000,
  );

  it('the Hosted agents screen: a Python agent from the template, highlighted as Python, saved, started, its logs live', async () => {
    const key = await hostingKey();
    const page = await createFromTemplate(running.browser, running.temp.stack.urls.client, {
      key,
      name: 'browser python agent',
      language: 'python',
      templateLine: 'from uagents import Agent, Context, Model',
    });
    const editor = page.getByTestId('code-editor');
    expect(await editor.getAttribute('data-language')).toBe('python');
    // Python's grammar at work: the comment is one comment token (TypeScript's grammar splits it into several).
    await editor.locator('span', { hasText: /^# An Agentverse-style agent: uagents, hosted on Rendezvous$/ }).waitFor();
    await page.getByTestId('agent-state').getByText('agent.py').waitFor();
    // An edit, saved: the log line it writes proves the saved code is what runs.
    await editor.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nprint("edited in the browser")\n');
    await saveAndStart(page, 30_000);
    const logs = page.getByTestId('agent-logs');
    await logs.getByText('edited in the browser').waitFor({ timeout: 30_000 });
    await logs.getByText('my agent is up at').waitFor({ timeout: 30_000 });

    // A message while the page is open: its handler's line shows up without a reload.
    const address = await hostedAgentAddress(running.temp.stack.urls.registry, key, 'browser python agent');
    const { sender, response } = await sendGreeting(running.temp.stack.urls.registry, address, 'from the e2e test');
    expect(response.status, await response.clone().text()).toBe(200);
    await logs.getByText(`greeting 1 from ${sender.address}: from the e2e test`).waitFor({ timeout: 15_000 });
    await page.close();
  }, 180_000);
});
