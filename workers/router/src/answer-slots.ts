import { DurableObject } from 'cloudflare:workers';
import type { AnalysisResultMessage } from '../../../schemas/messages.ts';

/** An agent the request was offered to that did not take it, and why (a code safe to show anyone). */
interface PassedOver {
  agent: string;
  reason: string;
  at: number;
}

/** What one request's slot holds: who may answer, until when, and the answer once filed. */
interface SlotRecord {
  /** The agent the request is with: the only one whose answer is filed. */
  peer: string;
  /** Agents tried before `peer`, in order; their answers are refused. */
  passedOver?: PassedOver[];
  openedAt: number;
  expiresAt: number;
  /**
   * An old client's request (sent without its own request_id) where the operator turned the spec's global slot
   * on: its answer is copied there too. Decided when the request is sent, never guessed from the answer.
   */
  toGlobalSlot?: boolean;
  /** When the specialist's webhook accepted the request. */
  deliveredAt?: number;
  answer?: { payload: AnalysisResultMessage; filedAt: number };
  /** Why the request reached no agent (every candidate passed over). */
  failure?: string;
}

type FileOutcome = { filed: true; toGlobalSlot: boolean } | { filed: false; refusal: 'unknown_session' | 'wrong_sender' };

/** The request's progress, for status queries and the latency benchmark. */
interface SlotTimes {
  peer: string;
  passedOver: PassedOver[];
  openedAt: number;
  deliveredAt: number | null;
  filedAt: number | null;
  expiresAt: number;
}

type SlotRead =
  | { state: 'unknown' }
  | { state: 'waiting'; times: SlotTimes }
  | { state: 'failed'; reason: string; times: SlotTimes }
  | { state: 'answered'; answer: AnalysisResultMessage; times: SlotTimes };

/**
 * Expired slots are swept at most this often: every read checks expiry itself, so a late sweep only keeps
 * dead rows a little longer, and one alarm serves every slot that expires meanwhile.
 */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Long polls held at once per request: a client needs one (its next poll starts when the last returns);
 * more only hold the shard's memory and timers, so each poll beyond these is answered at once.
 */
export const MAX_HELD_POLLS_PER_REQUEST = 4;

/**
 * The answer slots of the requests whose id falls in one shard (slots.ts picks it): each request has its own
 * slot, a row. It is opened when the request is sent, takes the answer only from the agent the request went
 * to, keeps it across polls (a poll whose reply was lost can be repeated) and is forgotten at expiry.
 * Every method reads and writes its row with synchronous SQL, so each call is one atomic step.
 */
export class AnswerSlots extends DurableObject<RouterEnv> {
  /** Long polls waiting for a request's answer (or failure); in memory: a poll holds its call open while it waits. */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(ctx: DurableObjectState, env: RouterEnv) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS slots (request_id TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at REAL NOT NULL)');
    ctx.storage.sql.exec('CREATE INDEX IF NOT EXISTS slots_by_expiry ON slots (expires_at)');
  }

  /** Opens the request's slot now with `peer`; false, changing nothing, when a live request already holds the id. */
  async open(requestId: string, peer: string, ttlMs: number, toGlobalSlot: boolean): Promise<boolean> {
    if (this.live(requestId)) return false;
    const now = Date.now();
    this.save(requestId, { peer, openedAt: now, expiresAt: now + ttlMs, toGlobalSlot });
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + ttlMs);
    return true;
  }

  /** The request goes to `next` instead: `peer` did not take it, for `reason`. Its answer will be refused. */
  passOver(requestId: string, reason: string, next: string): void {
    const record = this.live(requestId);
    if (!record || record.answer) return;
    const passedOver = [...(record.passedOver ?? []), { agent: record.peer, reason, at: Date.now() }];
    this.save(requestId, { ...record, peer: next, passedOver });
  }

  markDelivered(requestId: string): void {
    const record = this.live(requestId);
    if (record && record.deliveredAt === undefined && record.failure === undefined)
      this.save(requestId, { ...record, deliveredAt: Date.now() });
  }

  /** No agent took the request: the last one tried is passed over for `lastReason`, and the request fails. */
  fail(requestId: string, lastReason: string, failure: string): void {
    const record = this.live(requestId);
    if (!record || record.answer) return;
    const passedOver = [...(record.passedOver ?? []), { agent: record.peer, reason: lastReason, at: Date.now() }];
    this.save(requestId, { ...record, passedOver, failure });
    this.wake(requestId);
  }

  file(requestId: string, sender: string, answer: AnalysisResultMessage): FileOutcome {
    const record = this.live(requestId);
    if (!record) return { filed: false, refusal: 'unknown_session' };
    if (record.peer !== sender || record.failure !== undefined) return { filed: false, refusal: 'wrong_sender' };
    // A second answer in the same session replaces the first, as the spec's slot is overwritten while holding.
    this.save(requestId, { ...record, answer: { payload: answer, filedAt: Date.now() } });
    this.wake(requestId);
    return { filed: true, toGlobalSlot: record.toGlobalSlot === true };
  }

  /**
   * Where the request stands. With `waitMs`, a request still waiting is read again once its answer is
   * filed, it fails or expires, or `waitMs` has passed, whichever comes first (a long poll): a client
   * learns of its answer at once, with one request instead of one a second. A poll beyond the
   * request's MAX_HELD_POLLS_PER_REQUEST is answered at once.
   */
  async read(requestId: string, waitMs = 0): Promise<SlotRead> {
    const current = this.snapshot(requestId);
    if (current.state !== 'waiting' || waitMs <= 0) return current;
    if ((this.waiters.get(requestId)?.size ?? 0) >= MAX_HELD_POLLS_PER_REQUEST) return current;
    await this.changeWithin(requestId, Math.min(waitMs, current.times.expiresAt - Date.now()));
    return this.snapshot(requestId);
  }

  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const expired = sql.exec<{ request_id: string }>('DELETE FROM slots WHERE expires_at <= ? RETURNING request_id', now);
    for (const { request_id: requestId } of expired) this.wake(requestId);
    const next = sql.exec<{ next: number | null }>('SELECT min(expires_at) AS next FROM slots').one().next;
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, now + SWEEP_INTERVAL_MS));
  }

  private changeWithin(requestId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(requestId) ?? new Set();
      this.waiters.set(requestId, waiting);
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && this.waiters.get(requestId) === waiting) this.waiters.delete(requestId);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      waiting.add(wake);
    });
  }

  private wake(requestId: string): void {
    for (const wake of [...(this.waiters.get(requestId) ?? [])]) wake();
  }

  private snapshot(requestId: string): SlotRead {
    const record = this.live(requestId);
    if (!record) return { state: 'unknown' };
    const times: SlotTimes = {
      peer: record.peer,
      passedOver: record.passedOver ?? [],
      openedAt: record.openedAt,
      deliveredAt: record.deliveredAt ?? null,
      filedAt: record.answer?.filedAt ?? null,
      expiresAt: record.expiresAt,
    };
    if (record.answer) return { state: 'answered', answer: record.answer.payload, times };
    if (record.failure !== undefined) return { state: 'failed', reason: record.failure, times };
    return { state: 'waiting', times };
  }

  /** The request's record unless it has expired; the sweep may run late, so expiry is also checked here. */
  private live(requestId: string): SlotRecord | undefined {
    const sql = this.ctx.storage.sql;
    const row = sql
      .exec<{ record: string; expires_at: number }>('SELECT record, expires_at FROM slots WHERE request_id = ?', requestId)
      .toArray()[0];
    if (!row) return undefined;
    if (row.expires_at <= Date.now()) {
      sql.exec('DELETE FROM slots WHERE request_id = ?', requestId);
      return undefined;
    }
    return JSON.parse(row.record) as SlotRecord;
  }

  private save(requestId: string, record: SlotRecord): void {
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO slots (request_id, record, expires_at) VALUES (?, ?, ?)',
      requestId,
      JSON.stringify(record),
      record.expiresAt,
    );
  }
}
