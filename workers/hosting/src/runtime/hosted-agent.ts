import { DurableObject } from 'cloudflare:workers';
import type { AgentLog, LogLevel, StorageItem, StoragePage } from '../../../../schemas/hosting.ts';
import { findAgent } from '../agents/store.ts';
import { quotasOf } from '../quotas.ts';
import { failureText, guestOf } from './guest-loader.ts';
import { watched } from './watchdog.ts';

/** Log lines kept per agent; older lines are dropped as new ones come. */
const LOG_BUFFER_LINES = 1000;
/** Longest log line kept (longer ones are cut). */
const LOG_ENTRY_MAX_CHARS = 8 * 1024;
/** Lines GET …/logs/latest returns. */
const LATEST_LOG_LINES = 200;
const STORAGE_PAGE = 100;

type LogType = AgentLog['log_type'];

/**
 * One per hosted agent (named by its address): the agent's storage (what its code and the storage API
 * see), its interval schedule (one alarm for all intervals) and its bounded log buffer.
 */
export class HostedAgent extends DurableObject<HostingEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: HostingEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS logs (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, level TEXT NOT NULL, type TEXT NOT NULL, entry TEXT NOT NULL)',
    );
    this.sql.exec('CREATE TABLE IF NOT EXISTS intervals (idx INTEGER PRIMARY KEY, period_ms INTEGER NOT NULL, due REAL NOT NULL)');
    this.sql.exec('CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
  }

  async storageGet(key: string): Promise<string | null> {
    return this.sql.exec<{ value: string }>('SELECT value FROM kv WHERE key = ?', key).toArray()[0]?.value ?? null;
  }

  /**
   * Stores the value unless the agent's storage would pass its quotas (keys, bytes); then nothing changes and
   * the refusal is returned, saying which. This object is the agent's only writer, so the check holds.
   */
  async storageSet(key: string, value: string): Promise<{ ok: true } | { ok: false; detail: string }> {
    const quotas = quotasOf(this.env);
    const usage = this.sql
      .exec<{ keys: number; bytes: number; replaced: number }>(
        `SELECT COUNT(*) AS keys, COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS bytes,
          COALESCE(SUM(CASE WHEN key = ?1 THEN length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) END), -1) AS replaced FROM kv`,
        key,
      )
      .one();
    const isNew = usage.replaced < 0;
    if (isNew && usage.keys >= quotas.storageKeysPerAgent)
      return { ok: false, detail: `the agent's storage holds ${usage.keys} keys, its quota (HOSTED_STORAGE_KEYS_PER_AGENT)` };
    const bytes = usage.bytes - Math.max(usage.replaced, 0) + utf8Bytes(key) + utf8Bytes(value);
    if (bytes > quotas.storageBytesPerAgent)
      return {
        ok: false,
        detail: `this value would bring the agent's storage to ${bytes} bytes, over its quota of ${quotas.storageBytesPerAgent} (HOSTED_STORAGE_BYTES_PER_AGENT)`,
      };
    this.sql.exec('INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)', key, value);
    return { ok: true };
  }

  async storageDelete(key: string): Promise<boolean> {
    return this.sql.exec('DELETE FROM kv WHERE key = ?', key).rowsWritten > 0;
  }

  async storageKeys(): Promise<string[]> {
    return this.sql
      .exec<{ key: string }>('SELECT key FROM kv ORDER BY key')
      .toArray()
      .map((row) => row.key);
  }

  /** Keys after `cursor` (the last key of the previous page), in key order. */
  async storagePage(cursor: string | null): Promise<StoragePage> {
    const rows = this.sql
      .exec<StorageItem>('SELECT key, value FROM kv WHERE ?1 IS NULL OR key > ?1 ORDER BY key LIMIT ?2', cursor, STORAGE_PAGE + 1)
      .toArray()
      .map((row) => ({ key: row.key, value: row.value }));
    const more = rows.length > STORAGE_PAGE;
    const items = rows.slice(0, STORAGE_PAGE);
    return { items, next_cursor: more ? items[items.length - 1]!.key : null };
  }

  async log(level: LogLevel, type: LogType, entry: string): Promise<void> {
    this.sql.exec(
      'INSERT INTO logs (at, level, type, entry) VALUES (?, ?, ?, ?)',
      new Date().toISOString(),
      level,
      type,
      entry.slice(0, LOG_ENTRY_MAX_CHARS),
    );
    this.sql.exec('DELETE FROM logs WHERE id <= (SELECT MAX(id) FROM logs) - ?', LOG_BUFFER_LINES);
    // The log's byte quota: the newest lines that fit stay.
    this.sql.exec(
      `DELETE FROM logs WHERE id <= (SELECT id FROM (SELECT id, SUM(length(CAST(entry AS BLOB))) OVER (ORDER BY id DESC) AS newer FROM logs)
        WHERE newer > ? ORDER BY id DESC LIMIT 1)`,
      quotasOf(this.env).logBytesPerAgent,
    );
  }

  /** The latest lines, newest last. */
  async latestLogs(): Promise<AgentLog[]> {
    return this.sql
      .exec<{ at: string; level: LogLevel; type: LogType; entry: string }>(
        'SELECT at, level, type, entry FROM logs ORDER BY id DESC LIMIT ?',
        LATEST_LOG_LINES,
      )
      .toArray()
      .reverse()
      .map((row) => ({ log_timestamp: row.at, log_entry: row.entry, log_type: row.type, log_level: row.level }));
  }

  async clearLogs(): Promise<void> {
    this.sql.exec('DELETE FROM logs');
  }

  /** Starts the intervals (periods in seconds, in the code's declaration order); the first run is one period from now. */
  async schedule(address: string, periods: number[]): Promise<void> {
    this.sql.exec('INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)', 'address', address);
    this.sql.exec('DELETE FROM intervals');
    const now = Date.now();
    for (const [index, period] of periods.entries()) {
      this.sql.exec('INSERT INTO intervals (idx, period_ms, due) VALUES (?, ?, ?)', index, period * 1000, now + period * 1000);
    }
    await this.armAlarm();
  }

  async unschedule(): Promise<void> {
    this.sql.exec('DELETE FROM intervals');
    await this.ctx.storage.deleteAlarm();
  }

  /** Everything the agent had here: storage, logs, schedule. */
  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const address = this.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = 'address'").toArray()[0]?.v;
    const agent = address ? await findAgent(this.env.DB, address) : null;
    if (agent?.running !== 1) {
      this.sql.exec('DELETE FROM intervals');
      return;
    }
    const now = Date.now();
    const due = this.sql.exec<{ idx: number; period_ms: number }>('SELECT idx, period_ms FROM intervals WHERE due <= ?', now).toArray();
    // Reschedule first: a handler that fails or runs long does not stop its interval.
    for (const row of due) this.sql.exec('UPDATE intervals SET due = ? WHERE idx = ?', now + row.period_ms, row.idx);
    await this.armAlarm();
    const guest = guestOf(this.env, agent);
    for (const row of due) {
      try {
        await watched(this.env, agent.address, 'interval', () => guest.interval(row.idx));
      } catch (error) {
        await this.log('erro', 'system', `interval ${row.idx} failed: ${failureText(error)}`);
      }
    }
  }

  private async armAlarm(): Promise<void> {
    const next = this.sql.exec<{ due: number | null }>('SELECT MIN(due) AS due FROM intervals').toArray()[0]?.due;
    if (next === null || next === undefined) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }
}

const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).byteLength;

export function hostedAgentStub(env: Pick<HostingEnv, 'HOSTED_AGENT'>, address: string): DurableObjectStub<HostedAgent> {
  return env.HOSTED_AGENT.get(env.HOSTED_AGENT.idFromName(address)) as DurableObjectStub<HostedAgent>;
}
