import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Identity } from '../../lib/identity/index.ts';
import { accountKey, createAgent, isRunning, GREETER, logLine, putCode, start } from './helpers.ts';
import { timedSubmit } from './peer.ts';

/**
 * Isolation of tenants in memory (issue 22, finding 7): local workerd sets no memory limit on any isolate, so the
 * platform meters a guest's binary memory itself (guest/memory-meter.ts, 128 MiB). B goes past it in every way
 * the meter covers; B is stopped with the reason in its logs and its record, and A keeps answering.
 */
const sender = Identity.fromSeed('memory test sender', 0);

const message = (address: string, payload: unknown, schemaDigest?: string) => timedSubmit(sender, address, payload, schemaDigest);

async function agentWith(name: string, files: Record<string, string>): Promise<{ key: string; address: string }> {
  const key = await accountKey();
  const agent = await createAgent(key, name);
  await putCode(key, agent.address, files);
  await start(key, agent.address);
  return { key, address: agent.address };
}

const tenantB = (name: string, handler: string) =>
  agentWith(name, {
    'agent.ts': `import { defineAgent, z } from 'rendezvous/agent';
const agent = defineAgent({ name: 'b' });
const kept = [];
agent.onPayload(z.object({ go: z.literal(true) }), () => { ${handler} });
export default agent;
`,
  });

describe('a tenant past its memory budget is stopped; the others keep answering', () => {
  const hogs: [string, string, number][] = [
    [
      'keeps 48 MiB more each message (each message quick)',
      'kept.push(new Uint8Array(48 * 1024 * 1024).fill(1)); return { held: kept.length };',
      6,
    ],
    ['asks for 2 GB at once', 'kept.push(new Uint8Array(2 ** 31)); return {};', 1],
    ['grows a resizable buffer to 2 GB', 'kept.push(new ArrayBuffer(1024, { maxByteLength: 2 ** 31 })); return {};', 1],
    ['transfers a small buffer into 2 GB', 'kept.push(new ArrayBuffer(8).transfer(2 ** 31)); return {};', 1],
    ['makes a 2 GB wasm memory', 'kept.push(new WebAssembly.Memory({ initial: 32768 })); return {};', 1],
    [
      'copies through slice until it holds 2 GB',
      'let a = new Float64Array(4 * 1024 * 1024); for (let i = 0; i < 64; i++) kept.push(a = a.slice()); return {};',
      1,
    ],
  ];
  for (const [what, handler, messages] of hogs) {
    it(`B ${what}: B is stopped for its memory budget, A answers and hosting stays up`, async () => {
      const a = await agentWith('tenant A', GREETER);
      expect((await message(a.address, { text: 'warm' })).status).toBe(200);
      const b = await tenantB(what, handler);
      const statuses: number[] = [];
      for (let index = 0; index < messages; index += 1) {
        statuses.push((await message(b.address, { go: true }, 'model:hog')).status);
        expect((await message(a.address, { text: 'still there?' })).status).toBe(200);
      }
      // Stopped at the message that crossed 128 MiB (the third of 48 MiB), never later.
      expect(statuses).toContain(500);
      expect(statuses.indexOf(500)).toBeLessThanOrEqual(2);
      expect((await logLine(b.key, b.address, 'stopped: ')).log_entry).toMatch(/memory budget of 128 MiB/);
      expect(await isRunning(b.key, b.address)).toBe(false);
      expect((await message(b.address, { go: true }, 'model:hog')).status).toBe(503);
      expect((await SELF.fetch('http://hosting.test/health')).status).toBe(200);
      expect((await message(a.address, { text: 'and now?' })).status).toBe(200);
    });
  }

  it('code that allocates and drops buffers, far more in total than its budget, keeps running', async () => {
    const b = await tenantB('honest', 'const scratch = new Uint8Array(24 * 1024 * 1024).fill(7); return { sum: scratch[0] };');
    for (let index = 0; index < 20; index += 1) expect((await message(b.address, { go: true }, 'model:hog')).status).toBe(200);
    expect(await isRunning(b.key, b.address)).toBe(true);
  });
});
