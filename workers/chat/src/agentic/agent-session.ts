import { DurableObject } from 'cloudflare:workers';
import { MAX_EARLIER_TURNS } from '../../../../lib/agent/index.ts';
import type { ChatBindings } from '../env.ts';
import type { Target } from './target.ts';

/** What came back from the agent in a session: an acknowledgement of one of our messages, or an answer. */
export interface SessionEvent {
  seq: number;
  kind: 'acknowledged' | 'answered';
  /** The message of ours it concerns: acknowledged by id; an answer goes to the oldest message still unanswered. */
  msgId: string | null;
  text: string;
  at: string;
  /** An answer already shown to the user (by the request that waited for it, or as a late answer). */
  delivered: boolean;
}

interface SessionRecord {
  /** The API key id whose conversation this is; no other key reads it. */
  owner: string;
  /** The agent the conversation is with: the only sender whose messages are filed. */
  peer: Target | null;
  /** Our messages the agent has not answered yet, oldest first. */
  awaiting: string[];
  events: SessionEvent[];
  /** The user's questions sent in this session, oldest first: what an agent new to the conversation is told. */
  questions: string[];
  seq: number;
  expiresAt: number;
}

export type FileOutcome = 'filed' | 'unknown_session' | 'wrong_sender';

type SessionStart =
  | { ok: true; peer: Target | null; late: SessionEvent[]; cursor: number; questions: string[] }
  | { ok: false; reason: 'not_yours' };

const KEY = 'session';
/** Events kept per session: a conversation's recent acknowledgements and answers, not its whole history. */
const MAX_EVENTS = 50;
/** Questions remembered per session: as many as are ever carried to an agent new to it. */
const MAX_QUESTIONS = MAX_EARLIER_TURNS;

/**
 * One conversation between a chat user (an API key, an `x-session-id`) and an agent, named by the uAgents
 * session the messages travel in. The chat agent's webhook files the agent's acknowledgements and answers here;
 * the completion waits on `next`. An answer nobody waited for (it came after the deadline) stays undelivered
 * until the session's next request takes it up (`begin`). Forgotten, by alarm, a TTL after its last use.
 */
export class AgentSession extends DurableObject<ChatBindings> {
  private readonly waiters = new Set<() => void>();

  /** Opens (or continues) the session for `owner`; hands over the answers that came after earlier deadlines. */
  async begin(owner: string, ttlMs: number): Promise<SessionStart> {
    const now = Date.now();
    const current = await this.live();
    if (current && current.owner !== owner) return { ok: false, reason: 'not_yours' };
    const record: SessionRecord = current ?? { owner, peer: null, awaiting: [], events: [], questions: [], seq: 0, expiresAt: 0 };
    // Sessions stored before questions were remembered have none.
    record.questions ??= [];
    const late = record.events.filter((event) => event.kind === 'answered' && !event.delivered);
    for (const event of late) event.delivered = true;
    record.expiresAt = now + ttlMs;
    await this.ctx.storage.put<SessionRecord>(KEY, record);
    await this.ctx.storage.setAlarm(record.expiresAt);
    return { ok: true, peer: record.peer, late: late.map((event) => ({ ...event })), cursor: record.seq, questions: [...record.questions] };
  }

  /**
   * Our message `msgId`, asking the user's `question`, is about to go to `peer`: from now on its acknowledgement
   * and answer are filed.
   */
  async expect(peer: Target, msgId: string, question: string): Promise<void> {
    const record = await this.live();
    if (!record) return;
    if (record.peer?.agent.address !== peer.agent.address) record.awaiting = [];
    record.peer = peer;
    record.awaiting.push(msgId);
    record.questions ??= [];
    if (record.questions.at(-1) !== question) record.questions = [...record.questions, question].slice(-MAX_QUESTIONS);
    await this.ctx.storage.put<SessionRecord>(KEY, record);
  }

  /** The message never reached the agent: no answer is expected for it. */
  async withdraw(msgId: string): Promise<void> {
    const record = await this.live();
    if (!record) return;
    record.awaiting = record.awaiting.filter((id) => id !== msgId);
    await this.ctx.storage.put<SessionRecord>(KEY, record);
  }

  /** Files what the agent sent (called by the chat agent's webhook handlers, after the envelope was verified). */
  async file(sender: string, kind: SessionEvent['kind'], acknowledged: string | null, text: string): Promise<FileOutcome> {
    const record = await this.live();
    if (!record) return 'unknown_session';
    if (record.peer?.agent.address !== sender) return 'wrong_sender';
    const msgId = kind === 'answered' ? (record.awaiting.shift() ?? null) : acknowledged;
    record.seq += 1;
    record.events.push({ seq: record.seq, kind, msgId, text, at: new Date().toISOString(), delivered: false });
    record.events = record.events.slice(-MAX_EVENTS);
    await this.ctx.storage.put<SessionRecord>(KEY, record);
    for (const wake of this.waiters) wake();
    return 'filed';
  }

  /** The events after `cursor`, waiting until there is one or until `until` (epoch ms). Nothing counts as shown yet. */
  async next(cursor: number, until: number): Promise<SessionEvent[]> {
    for (;;) {
      const record = await this.live();
      const fresh = record?.events.filter((event) => event.seq > cursor) ?? [];
      if (fresh.length) return fresh;
      const wait = until - Date.now();
      if (!record || wait <= 0) return [];
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, wait);
        this.waiters.add(wake);
      });
    }
  }

  /** The answer `seq` was shown to the user: the session's next request does not show it again. */
  async shown(seq: number): Promise<void> {
    const record = await this.live();
    const event = record?.events.find((candidate) => candidate.seq === seq);
    if (!record || !event) return;
    event.delivered = true;
    await this.ctx.storage.put<SessionRecord>(KEY, record);
  }

  override async alarm(): Promise<void> {
    const record = await this.ctx.storage.get<SessionRecord>(KEY);
    if (record && record.expiresAt > Date.now()) await this.ctx.storage.setAlarm(record.expiresAt);
    else await this.ctx.storage.deleteAll();
  }

  /** The record unless it has expired; an alarm may run late, so expiry is also checked on read. */
  private async live(): Promise<SessionRecord | undefined> {
    const record = await this.ctx.storage.get<SessionRecord>(KEY);
    if (record && record.expiresAt <= Date.now()) {
      await this.ctx.storage.deleteAll();
      return undefined;
    }
    return record;
  }
}
