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

const KEY = 'slot';

/**
 * One Durable Object per request (named by its envelope session). It is opened when the request is sent,
 * takes the answer only from the agent the request went to, keeps it across polls (a poll whose reply was
 * lost can be repeated) and forgets everything at expiry, by alarm.
 */
export class AnswerSlot extends DurableObject<RouterEnv> {
  /** Long polls waiting for the answer (or the failure); in memory: a poll holds its call open while it waits. */
  private readonly waiters = new Set<() => void>();

  /**
   * Opens the slot for a request now with `peer`; false, changing nothing, when a live request already holds
   * it (a client's request_id used twice). Read and write are one step: the object's input gate lets no other
   * call in between.
   */
  async open(peer: string, ttlMs: number, toGlobalSlot: boolean): Promise<boolean> {
    if (await this.live()) return false;
    const now = Date.now();
    await this.ctx.storage.put<SlotRecord>(KEY, { peer, openedAt: now, expiresAt: now + ttlMs, toGlobalSlot });
    await this.ctx.storage.setAlarm(now + ttlMs);
    return true;
  }

  /** The request goes to `next` instead: `peer` did not take it, for `reason`. Its answer will be refused. */
  async passOver(reason: string, next: string): Promise<void> {
    const record = await this.live();
    if (!record || record.answer) return;
    const passedOver = [...(record.passedOver ?? []), { agent: record.peer, reason, at: Date.now() }];
    await this.ctx.storage.put<SlotRecord>(KEY, { ...record, peer: next, passedOver });
  }

  async markDelivered(): Promise<void> {
    const record = await this.live();
    if (record && record.deliveredAt === undefined && record.failure === undefined)
      await this.ctx.storage.put<SlotRecord>(KEY, { ...record, deliveredAt: Date.now() });
  }

  /** No agent took the request: the last one tried is passed over for `lastReason`, and the request fails. */
  async fail(lastReason: string, failure: string): Promise<void> {
    const record = await this.live();
    if (!record || record.answer) return;
    const passedOver = [...(record.passedOver ?? []), { agent: record.peer, reason: lastReason, at: Date.now() }];
    await this.ctx.storage.put<SlotRecord>(KEY, { ...record, passedOver, failure });
    this.wakeWaiters();
  }

  async file(sender: string, answer: AnalysisResultMessage): Promise<FileOutcome> {
    const record = await this.live();
    if (!record) return { filed: false, refusal: 'unknown_session' };
    if (record.peer !== sender || record.failure !== undefined) return { filed: false, refusal: 'wrong_sender' };
    // A second answer in the same session replaces the first, as the spec's slot is overwritten while holding.
    await this.ctx.storage.put<SlotRecord>(KEY, { ...record, answer: { payload: answer, filedAt: Date.now() } });
    this.wakeWaiters();
    return { filed: true, toGlobalSlot: record.toGlobalSlot === true };
  }

  /**
   * Where the request stands. With `waitMs`, a request still waiting is read again once its answer is
   * filed, it fails or expires, or `waitMs` has passed, whichever comes first (a long poll): a client
   * learns of its answer at once, with one request instead of one a second.
   */
  async read(waitMs = 0): Promise<SlotRead> {
    const current = await this.snapshot();
    if (current.state !== 'waiting' || waitMs <= 0) return current;
    await this.changeWithin(Math.min(waitMs, current.times.expiresAt - Date.now()));
    return this.snapshot();
  }

  private changeWithin(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.waiters.add(wake);
    });
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private async snapshot(): Promise<SlotRead> {
    const record = await this.live();
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

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.wakeWaiters();
  }

  /** The record unless it has expired; an alarm may run late, so expiry is also checked on read. */
  private async live(): Promise<SlotRecord | undefined> {
    const record = await this.ctx.storage.get<SlotRecord>(KEY);
    if (record && record.expiresAt <= Date.now()) {
      await this.ctx.storage.deleteAll();
      return undefined;
    }
    return record;
  }
}
