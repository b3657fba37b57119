import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostedAgent, HostedAgentSummary } from '../../schemas/hosting.ts';
import { bootstrapDevKey } from '../dev/bootstrap-key.ts';

export const EXAMPLE_NAME = 'Echo (example)';

const README = `# Echo (example)

A hosted agent: it lives on the platform (no server of its own). Send it a \`Greeting {text}\` and it answers
\`Reply {text, count}\`; a plain JSON \`{request}\` gets \`{answer}\`. Its code is workers/hosting/examples/echo-agent.ts.

![tag:example](https://img.shields.io/badge/example-hosted-blue)
`;

async function call<T>(hostingUrl: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${hostingUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * `npm start`'s example hosted agent: created (with a hosting key of its own, kept beside the local state)
 * and its code uploaded on the first start, started on every start. Returns its address.
 */
export async function ensureExampleHostedAgent(options: {
  root: string;
  hostingUrl: string;
  registryUrl: string;
  adminToken: string;
  stateDir: string;
}): Promise<string> {
  const keyFile = join(options.stateDir, 'hosting-example-key');
  let key = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '';
  const works = key ? (await fetch(`${options.hostingUrl}/v1/hosting/agents`, { headers: { authorization: `Bearer ${key}` } })).ok : false;
  if (!works) {
    key = await bootstrapDevKey({
      registryUrl: options.registryUrl,
      adminToken: options.adminToken,
      name: 'hosting example',
      permissions: ['hosting'],
    });
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  }
  const page = await call<{ items: HostedAgentSummary[] }>(
    options.hostingUrl,
    key,
    'GET',
    `/v1/hosting/agents?name=${encodeURIComponent(EXAMPLE_NAME)}`,
  );
  let address = page.items.find((item) => item.name === EXAMPLE_NAME)?.address;
  if (!address) {
    const created = await call<HostedAgent>(options.hostingUrl, key, 'POST', '/v1/hosting/agents', {
      name: EXAMPLE_NAME,
      readme: README,
      short_description: 'echoes greetings',
    });
    address = created.address;
    const source = readFileSync(join(options.root, 'workers/hosting/examples/echo-agent.ts'), 'utf8');
    await call(options.hostingUrl, key, 'PUT', `/v1/hosting/agents/${address}/code`, {
      code: JSON.stringify([{ name: 'agent.ts', value: source, language: 'typescript' }]),
    });
  }
  const started = await call<HostedAgent>(options.hostingUrl, key, 'POST', `/v1/hosting/agents/${address}/start`);
  if (!started.running) throw new Error(`the example hosted agent did not start (compiled: ${started.compiled}); see its logs`);
  return address;
}
