/**
 * The longest question: POST /api/send-request takes no more, the client checks it before sending, and the specialist
 * takes no longer `request` (a bound of its own, not in the message model, whose schema digest Python agents share):
 * each question spends the chat key, EDGAR's budget and a queue message. Zod-free: the first screen imports it.
 */
export const MAX_QUESTION_CHARS = 10_000;
