import { WorkerEntrypoint } from 'cloudflare:workers';
import type { Message } from '../../../../lib/agent/model.ts';
import { type LogLevel, logLevelSchema } from '../../../../schemas/hosting.ts';
import { findAgent } from '../agents/store.ts';
import { open } from '../agents/vault.ts';
import type { HostCalls } from '../guest/protocol.ts';
import type { AgentProps } from './exports.ts';
import { guestFetch, guestUrlPolicy } from './guest-egress.ts';
import { hostedAgentStub } from './hosted-agent.ts';
import { platformAgent } from './platform-agent.ts';
import { memorySnapshot } from './python-guest.ts';

const STORAGE_VALUE_MAX_CHARS = 128 * 1024;
const STORAGE_KEY_MAX_CHARS = 512;
/** Storage pages (100 keys each) a Python agent's snapshot may hold. */
const STORAGE_SNAPSHOT_MAX_PAGES = 20;

/**
 * What a hosted agent's code calls as `env.HOST`: bound by props to that agent's address, so it signs,
 * stores and logs only as itself. Every argument comes from untrusted code and is checked here.
 */
export class HostApi extends WorkerEntrypoint<HostingEnv, AgentProps> implements HostCalls {
  private get address(): string {
    return this.ctx.props.address;
  }

  private async agent() {
    const row = await findAgent(this.env.DB, this.address);
    if (!row) throw new Error('this agent no longer exists');
    return (await platformAgent(this.env, row)).context(this.env, this.ctx);
  }

  async send(to: string, message: Message, session: string): Promise<void> {
    await (await this.agent()).send(String(to), checkedMessage(message), { session: String(session) });
  }

  async sendAndReceive(to: string, message: Message, options: { session: string; timeout?: number }) {
    const timeout = Math.min(Math.max(Number(options?.timeout) || 30_000, 100), 60_000);
    return (await this.agent()).sendAndReceive(String(to), checkedMessage(message), { session: String(options?.session), timeout });
  }

  async storageGet(key: string): Promise<string | null> {
    return hostedAgentStub(this.env, this.address).storageGet(checkedKey(key));
  }

  async storageSet(key: string, value: string): Promise<void> {
    if (typeof value !== 'string' || value.length > STORAGE_VALUE_MAX_CHARS)
      throw new TypeError(`a stored value is a JSON text of at most ${STORAGE_VALUE_MAX_CHARS} characters`);
    const stored = await hostedAgentStub(this.env, this.address).storageSet(checkedKey(key), value);
    if (!stored.ok) throw new RangeError(`storage quota exceeded: ${stored.detail}; nothing was changed`);
  }

  async storageDelete(key: string): Promise<boolean> {
    return hostedAgentStub(this.env, this.address).storageDelete(checkedKey(key));
  }

  async storageKeys(): Promise<string[]> {
    return hostedAgentStub(this.env, this.address).storageKeys();
  }

  async storageEntries(): Promise<Record<string, string>> {
    const stub = hostedAgentStub(this.env, this.address);
    const entries: Record<string, string> = {};
    let cursor: string | null = null;
    for (let page = 0; page < STORAGE_SNAPSHOT_MAX_PAGES; page++) {
      const { items, next_cursor } = await stub.storagePage(cursor);
      for (const item of items) entries[item.key] = item.value;
      cursor = next_cursor;
      if (cursor === null) return entries;
    }
    throw new RangeError(`the agent's storage holds more keys than a Python agent reads at once (${STORAGE_SNAPSHOT_MAX_PAGES} pages)`);
  }

  async secret(name: string): Promise<string | null> {
    const row = await this.env.DB.prepare('SELECT sealed_value FROM hosted_secrets WHERE address = ?1 AND name = ?2')
      .bind(this.address, String(name))
      .first<{ sealed_value: string }>();
    return row ? open(this.env, row.sealed_value) : null;
  }

  async secrets(): Promise<Record<string, string>> {
    const { results } = await this.env.DB.prepare('SELECT name, sealed_value FROM hosted_secrets WHERE address = ?1')
      .bind(this.address)
      .all<{ name: string; sealed_value: string }>();
    const opened = await Promise.all(results.map(async (row) => [row.name, await open(this.env, row.sealed_value)]));
    return Object.fromEntries(opened);
  }

  /** Python guests only: 20 MiB copied per call, which no other guest needs. */
  async pythonSnapshot(): Promise<ArrayBuffer> {
    if (!this.ctx.props.python) throw new Error('only a Python agent starts from the memory snapshot');
    return memorySnapshot();
  }

  async log(level: LogLevel, entry: string): Promise<void> {
    const checked = logLevelSchema.safeParse(level);
    await hostedAgentStub(this.env, this.address).log(checked.success ? checked.data : 'info', 'execution', String(entry));
  }
}

function checkedKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > STORAGE_KEY_MAX_CHARS)
    throw new TypeError(`a storage key is a string of 1 to ${STORAGE_KEY_MAX_CHARS} characters`);
  return key;
}

function checkedMessage(message: Message): Message {
  if (!message || typeof message.schemaDigest !== 'string') throw new TypeError('send a message made by a model (or rawMessage)');
  return {
    schemaDigest: message.schemaDigest,
    protocolDigest: typeof message.protocolDigest === 'string' ? message.protocolDigest : null,
    payload: message.payload,
  };
}

/**
 * The Dynamic Worker's only way out (`globalOutbound`): every fetch of hosted code, and every redirect hop of
 * it, passes hosted code's own egress policy (guest-egress.ts), which never allows loopback or private hosts.
 */
export class GuestOutbound extends WorkerEntrypoint<HostingEnv, AgentProps> {
  override async fetch(request: Request): Promise<Response> {
    const result = await guestFetch(request, guestUrlPolicy(this.env));
    if (result.ok) return result.response;
    this.ctx.waitUntil(
      hostedAgentStub(this.env, this.ctx.props.address).log('warn', 'system', `outbound fetch refused: ${result.url}: ${result.message}`),
    );
    return Response.json({ detail: `refused by the platform's egress policy for hosted code: ${result.message}` }, { status: 403 });
  }
}
