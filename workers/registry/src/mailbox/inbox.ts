import { DurableObject } from 'cloudflare:workers';
import { MAILBOX_LIMITS } from './limits.ts';

/** One stored envelope as the inbox hands it out; times are epoch milliseconds, `envelope` the JSON as signed. */
export interface InboxEntry {
  uuid: string;
  envelope: string;
  receivedAt: number;
  expiresAt: number;
}

type InboxSubmit = { ok: true; entry: InboxEntry } | { ok: false; full: 'envelopes' | 'bytes'; pending: number; bytes: number };

interface InboxSummary {
  pending: number;
  bytes: number;
  oldestReceivedAt: number | null;
}

/**
 * One agent's inbox (a Durable Object per address, SQLite-backed). Its writes are durable before any answer
 * leaves it (the output gate), so the submit route answers 200 only for a stored envelope. Oldest first;
 * an envelope leaves by its agent's delete or by expiring (an alarm sweeps them).
 */
export class Inbox extends DurableObject<RegistryEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: RegistryEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS envelopes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      uuid TEXT NOT NULL UNIQUE,
      digest TEXT NOT NULL UNIQUE,
      envelope TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    )`);
    this.sql.exec('CREATE INDEX IF NOT EXISTS envelopes_by_expiry ON envelopes (expires_at)');
  }

  /** Stores an envelope unless the inbox is full. The same signed envelope twice is stored once (its first uuid answers). */
  async submit(envelope: string, digest: string, expiresAt: number, now = Date.now()): Promise<InboxSubmit> {
    this.sweep(now);
    const existing = this.sql
      .exec<EntryRow>('SELECT uuid, envelope, received_at, expires_at FROM envelopes WHERE digest = ?', digest)
      .toArray()[0];
    if (existing) return { ok: true, entry: toEntry(existing) };
    const bytes = new TextEncoder().encode(envelope).length;
    const totals = this.totals();
    if (totals.pending + 1 > MAILBOX_LIMITS.max_envelopes) return { ok: false, full: 'envelopes', ...totals };
    if (totals.bytes + bytes > MAILBOX_LIMITS.max_bytes) return { ok: false, full: 'bytes', ...totals };
    const uuid = crypto.randomUUID();
    this.sql.exec(
      'INSERT INTO envelopes (uuid, digest, envelope, bytes, received_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      uuid,
      digest,
      envelope,
      bytes,
      now,
      expiresAt,
    );
    await this.scheduleSweep();
    return { ok: true, entry: { uuid, envelope, receivedAt: now, expiresAt } };
  }

  /** Unexpired envelopes, oldest first. */
  list(limit: number, offset: number, now = Date.now()): InboxEntry[] {
    this.sweep(now);
    return this.sql
      .exec<EntryRow>('SELECT uuid, envelope, received_at, expires_at FROM envelopes ORDER BY seq LIMIT ? OFFSET ?', limit, offset)
      .toArray()
      .map(toEntry);
  }

  /** False when no envelope of this inbox has the uuid (another inbox's uuid included). */
  remove(uuid: string): boolean {
    return this.sql.exec('DELETE FROM envelopes WHERE uuid = ?', uuid).rowsWritten > 0;
  }

  summary(now = Date.now()): InboxSummary {
    this.sweep(now);
    const oldest = this.sql.exec<{ received_at: number }>('SELECT received_at FROM envelopes ORDER BY seq LIMIT 1').toArray()[0];
    return { ...this.totals(), oldestReceivedAt: oldest?.received_at ?? null };
  }

  override async alarm(): Promise<void> {
    this.sweep(Date.now());
    await this.scheduleSweep();
  }

  private totals(): { pending: number; bytes: number } {
    const row = this.sql
      .exec<{ pending: number; bytes: number }>('SELECT count(*) AS pending, coalesce(sum(bytes), 0) AS bytes FROM envelopes')
      .one();
    return { pending: row.pending, bytes: row.bytes };
  }

  private sweep(now: number): void {
    this.sql.exec('DELETE FROM envelopes WHERE expires_at <= ?', now);
  }

  /** An alarm at the next expiry, so an inbox nobody reads still empties itself. */
  private async scheduleSweep(): Promise<void> {
    const next = this.sql.exec<{ at: number | null }>('SELECT min(expires_at) AS at FROM envelopes').one().at;
    if (next === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }
}

interface EntryRow extends Record<string, SqlStorageValue> {
  uuid: string;
  envelope: string;
  received_at: number;
  expires_at: number;
}

function toEntry(row: EntryRow): InboxEntry {
  return { uuid: row.uuid, envelope: row.envelope, receivedAt: row.received_at, expiresAt: row.expires_at };
}
