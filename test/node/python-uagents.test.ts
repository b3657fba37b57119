import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAT_PROTOCOL_DIGEST, ChatAcknowledgement, ChatMessage } from '../../lib/agent/chat-protocol.ts';
import vectors from '../fixtures/interop/envelope.json';
import fixture from './fixtures/pydantic-v1-schemas.json';

/**
 * The hosted agents' pure-Python uagents (workers/hosting/src/python/site) against uagents-core's digests: the
 * pydantic v1 fixture's models, rebased on our Model, write the same schema JSON; the chat protocol's models and
 * protocol digest are the published ones. Run with the machine's Python 3 (the guest runs the same source on Pyodide).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SITE = join(ROOT, 'workers/hosting/src/python/site');
const shim = mkdtempSync(join(tmpdir(), 'rendezvous-pydantic-shim-'));
afterAll(() => rmSync(shim, { recursive: true, force: true }));

// A `pydantic` that is our Model: the fixture's own script then computes its digests with it.
mkdirSync(join(shim, 'pydantic'));
const SHIM = 'from uagents_core.models import UUID4, Model as BaseModel\nVERSION = "ours"\n';
writeFileSync(join(shim, 'pydantic/__init__.py'), SHIM);
writeFileSync(join(shim, 'pydantic/v1.py'), SHIM);

const python = (args: string[]) =>
  execFileSync('python3', args, { env: { ...process.env, PYTHONPATH: `${shim}:${SITE}`, PYTHONDONTWRITEBYTECODE: '1' }, encoding: 'utf8' });

describe('the hosted uagents module computes digests as uagents-core does', () => {
  it("writes pydantic v1's schema JSON, byte for byte, for every model of the pydantic v1 fixture", () => {
    const ours = JSON.parse(python([join(ROOT, 'test/node/fixtures/pydantic-v1-schemas.py')])) as typeof fixture;
    expect(ours.models.map((model) => model.title)).toEqual(fixture.models.map((model) => model.title));
    for (const [index, model] of ours.models.entries()) {
      expect(model.schema_json, model.title).toBe(fixture.models[index]!.schema_json);
      expect(model.digest, model.title).toBe(fixture.models[index]!.digest);
    }
  });

  it("gives the chat protocol's published digests, which the TypeScript side computes too", () => {
    const digests = JSON.parse(
      python([
        '-c',
        `import json
from uagents_core.models import Model
from uagents_core.contrib.protocols.chat import ChatAcknowledgement, ChatMessage, chat_protocol_spec
from uagents import Protocol
print(json.dumps({"message": Model.build_schema_digest(ChatMessage), "ack": Model.build_schema_digest(ChatAcknowledgement),
  "spec": chat_protocol_spec.digest, "protocol": Protocol(spec=chat_protocol_spec).digest}))`,
      ]),
    ) as Record<string, string>;
    expect(digests).toEqual({
      message: vectors.schema_digests['ChatMessage (AgentChatProtocol)'],
      ack: ChatAcknowledgement.digest,
      spec: vectors.protocol_digests.AgentChatProtocol,
      protocol: vectors.protocol_digests.AgentChatProtocol,
    });
    expect(ChatMessage.digest).toBe(digests.message);
    expect(CHAT_PROTOCOL_DIGEST).toBe(digests.spec);
  });

  it("gives Request(request: str) uagents-core's published digest", () => {
    const digest = python([
      '-c',
      'from uagents import Model\nclass Request(Model):\n    request: str\nprint(Model.build_schema_digest(Request))',
    ]).trim();
    expect(digest).toBe(vectors.schema_digests['Request(request: str)']);
  });
});

describe('the precompiled Pyodide modules', () => {
  it('are every module the pinned Pyodide compiles while it starts (a miss fails with "Wasm code generation disallowed")', () => {
    const out = execFileSync('node', [join(ROOT, 'workers/hosting/record-pyodide.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/^\d+ trampolines and \d+ standard modules as recorded/);
  }, 60_000);
});
