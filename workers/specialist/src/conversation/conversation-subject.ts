import { DurableObject } from 'cloudflare:workers';
import type { Subject } from '../analysis/follow-up.ts';

const KEY = 'subject';
/** A conversation's subject is forgotten a day after its last question (as the chat agent forgets its sessions). */
const TTL_MS = 24 * 60 * 60 * 1000;

interface StoredSubject {
  subject: Subject;
  expiresAt: number;
}

/**
 * The subject of one uAgents chat session of one sender (the companies, figures and period in play), so that
 * "And in fiscal 2023?" means NVIDIA's revenue when the session was about it. One object per (sender, session):
 * the name holds both, so two senders never share a subject, whatever session id they use. Stored, so a restart
 * or another instance keeps the conversation; forgotten by alarm a day after its last use.
 */
export class ConversationSubject extends DurableObject<SpecialistEnv> {
  /** The subject so far, or null for a new (or forgotten) session. */
  async recall(): Promise<Subject | null> {
    const stored = await this.ctx.storage.get<StoredSubject>(KEY);
    return stored && stored.expiresAt > Date.now() ? stored.subject : null;
  }

  async remember(subject: Subject): Promise<void> {
    const expiresAt = Date.now() + TTL_MS;
    await this.ctx.storage.put<StoredSubject>(KEY, { subject, expiresAt });
    await this.ctx.storage.setAlarm(expiresAt);
  }

  override async alarm(): Promise<void> {
    const stored = await this.ctx.storage.get<StoredSubject>(KEY);
    if (stored && stored.expiresAt > Date.now()) await this.ctx.storage.setAlarm(stored.expiresAt);
    else await this.ctx.storage.deleteAll();
  }
}

/** The subject object of `sender`'s session `session`. */
export function conversationSubject(env: SpecialistEnv, sender: string, session: string): DurableObjectStub<ConversationSubject> {
  return env.CONVERSATION_SUBJECT.get(env.CONVERSATION_SUBJECT.idFromName(`${sender}\n${session}`));
}
