import { DurableObject } from 'cloudflare:workers';
import type { ChatBindings } from '../env.ts';

/** SQLite values in a Durable Object are at most 2 MB: a conversation is stored in pieces of this many characters. */
const PIECE_CHARS = 512 * 1024;

/** A response as stored: its object, the conversation it ends (for `previous_response_id`) and its output items by id (for `item_reference`). */
export interface StoredResponse {
  id: string;
  /** The response object, as JSON. */
  response: string;
  /** The conversation up to and including this response's output, as JSON chat messages. */
  conversation: string;
  items: { id: string; item: string }[];
}

/**
 * One per API key (SQLite-backed): the key's stored responses (Responses API, `store` on by default), kept for
 * the retention the deployment sets (RESPONSES_RETENTION_SECONDS) and deleted by an alarm after it. Only the
 * key that made a response can read it, continue from it or delete it: the store is the key's own.
 */
export class ResponseStore extends DurableObject<ChatBindings> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: ChatBindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS responses (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, response TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS responses_expiry ON responses (expires_at);
      CREATE TABLE IF NOT EXISTS conversation_pieces (
        response_id TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (response_id, seq)
      );
      CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, response_id TEXT NOT NULL, item TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS items_response ON items (response_id);`);
  }

  async save(stored: StoredResponse, retentionMs: number): Promise<void> {
    const expiresAt = Date.now() + retentionMs;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec('INSERT OR REPLACE INTO responses (id, expires_at, response) VALUES (?, ?, ?)', stored.id, expiresAt, stored.response);
      for (let seq = 0; seq * PIECE_CHARS < stored.conversation.length; seq++) {
        const text = stored.conversation.slice(seq * PIECE_CHARS, (seq + 1) * PIECE_CHARS);
        this.sql.exec('INSERT OR REPLACE INTO conversation_pieces (response_id, seq, text) VALUES (?, ?, ?)', stored.id, seq, text);
      }
      for (const { id, item } of stored.items) {
        this.sql.exec('INSERT OR REPLACE INTO items (id, response_id, item) VALUES (?, ?, ?)', id, stored.id, item);
      }
    });
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > expiresAt) await this.ctx.storage.setAlarm(expiresAt);
  }

  /** The response object (JSON), unless unknown or past its retention. */
  async response(id: string): Promise<string | null> {
    const row = this.sql
      .exec<{ response: string }>('SELECT response FROM responses WHERE id = ? AND expires_at > ?', id, Date.now())
      .toArray()[0];
    return row?.response ?? null;
  }

  /** The conversation a response ends (JSON chat messages), unless unknown or past its retention. */
  async conversation(id: string): Promise<string | null> {
    if (!(await this.response(id))) return null;
    return this.sql
      .exec<{ text: string }>('SELECT text FROM conversation_pieces WHERE response_id = ? ORDER BY seq', id)
      .toArray()
      .map((row) => row.text)
      .join('');
  }

  /** Stored output items (JSON) by id, for those of `ids` that exist and are within retention. */
  async items(ids: string[]): Promise<Record<string, string>> {
    const found: Record<string, string> = {};
    const now = Date.now();
    for (const id of new Set(ids)) {
      const row = this.sql
        .exec<{ item: string }>(
          'SELECT items.item FROM items JOIN responses ON responses.id = items.response_id WHERE items.id = ? AND responses.expires_at > ?',
          id,
          now,
        )
        .toArray()[0];
      if (row) found[id] = row.item;
    }
    return found;
  }

  /** Deletes a response with its conversation and items; false when there was none. */
  async remove(id: string): Promise<boolean> {
    const existed = (await this.response(id)) !== null;
    this.forget(id);
    return existed;
  }

  /** Deletes every response past its retention, and wakes again for the next. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    for (const { id } of this.sql.exec<{ id: string }>('SELECT id FROM responses WHERE expires_at <= ?', now).toArray()) this.forget(id);
    const next = this.sql.exec<{ at: number | null }>('SELECT MIN(expires_at) AS at FROM responses').toArray()[0]?.at;
    if (next != null) await this.ctx.storage.setAlarm(next);
  }

  private forget(id: string): void {
    this.ctx.storage.transactionSync(() => {
      this.sql.exec('DELETE FROM items WHERE response_id = ?', id);
      this.sql.exec('DELETE FROM conversation_pieces WHERE response_id = ?', id);
      this.sql.exec('DELETE FROM responses WHERE id = ?', id);
    });
  }
}

/** The calling key's response store. */
export function responseStoreFor(env: ChatBindings, keyId: string) {
  return env.RESPONSE_STORE.get(env.RESPONSE_STORE.idFromName(keyId));
}
