/** The longest question POST /api/send-request takes; the client checks it too, before sending. Zod-free: the first screen imports it. */
export const MAX_QUESTION_CHARS = 10_000;
