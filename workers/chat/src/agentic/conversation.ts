import type { StepEvent } from '../completion/events.ts';
import type { ChatBindings } from '../env.ts';
import { lateNote } from './relay.ts';
import { agentSession, agentSessionFor } from './session-id.ts';
import { stepEvent } from './steps.ts';
import type { Target } from './target.ts';

type SessionStub = ReturnType<typeof agentSession>;

/** The conversation a completion belongs to, as it stands when the request comes. */
export interface OpenConversation {
  /** The uAgents session the messages travel in. */
  session: string;
  stub: SessionStub;
  /** The agent the session is with (only when the caller continues it with `x-session-id`). */
  continuing: Target | null;
  /** The user's questions this session remembers. */
  questions: string[];
  cursor: number;
  /** Answers that came after earlier deadlines: their steps, and their notes for the content. */
  lateSteps: StepEvent[];
  lateNotes: string[];
}

/**
 * Opens the conversation of `keyId` and the caller's `x-session-id` (a new one without it) and takes up the
 * answers that came after earlier requests' deadlines.
 */
export async function openConversation(env: ChatBindings, keyId: string, callerSession: string | undefined): Promise<OpenConversation> {
  const session = await agentSessionFor(keyId, callerSession);
  const stub = agentSession(env, session);
  const start = await stub.begin(keyId, (Number(env.AGENT_SESSION_TTL_SECONDS) || 86_400) * 1000);
  if (!start.ok) throw new Error('an agent session derived from this key belongs to another');
  const peer = start.peer ? { ...start.peer, evidence: start.peer.evidence ?? null } : null;
  const late = peer ? start.late : [];
  return {
    session,
    stub,
    continuing: callerSession ? peer : null,
    questions: start.questions,
    cursor: start.cursor,
    lateSteps: late.map((event) => stepEvent({ step: 'answered', text: event.text, agent: peer!.agent, msg_id: event.msgId, late: true })),
    lateNotes: late.map((event) => lateNote(peer!, event)),
  };
}
