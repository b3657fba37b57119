import type { AnalysisItem } from '../../../schemas/messages.ts';

/** One question and where its answer stands. */
export type Turn = {
  id: number;
  question: string;
  askedAt: number;
} & (
  | { state: 'sending' }
  | { state: 'waiting'; requestId: string }
  | { state: 'answered'; requestId: string; analysis: AnalysisItem[] }
  | { state: 'no_specialist'; message: string }
  | { state: 'error'; message: string }
  | { state: 'timeout'; requestId: string }
);

/** Distributes a state change over the turn's fixed fields. */
export type TurnUpdate = Turn extends infer T ? (T extends Turn ? Omit<T, 'id' | 'question' | 'askedAt'> : never) : never;
