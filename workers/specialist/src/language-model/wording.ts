import type { ChatClient } from './chat-client.ts';

const SYSTEM = [
  'You are the editor of a financial analysis agent. Rewrite the draft answer to the question as a short, clear answer in prose.',
  'Keep every figure exactly as written in the draft (amounts, percentages, changes, fiscal years). Add no figures and no facts.',
].join(' ');

const numbersIn = (text: string) => new Set(text.match(/\d+(?:[.,]\d+)*/g) ?? []);

/**
 * The model's wording of the supervisor's answer, accepted only when it keeps every figure of the draft
 * and adds none: the figures must be the filings', whatever the model. Null when it does not, or when no
 * model answered (the draft is then the answer).
 */
export async function rewordAnswer(chat: ChatClient, question: string, draft: string): Promise<string | null> {
  const reply = await chat.complete([
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Question: ${question}\n\nDraft answer:\n${draft}` },
  ]);
  const text = reply?.content.trim();
  if (!text) return null;
  const kept = numbersIn(draft);
  const used = numbersIn(text);
  for (const number of kept) if (!used.has(number)) return null;
  for (const number of used) if (!kept.has(number)) return null;
  return text;
}
