/**
 * What a chat agent tells an agent that has not seen the conversation: the question, then the user's earlier
 * questions (oldest first) under one fixed heading. Written for any reader (a person, a model) and read back by
 * agents of this platform (the specialist) with `readEarlierTurns`. Only the user's questions travel, never other
 * agents' answers: one agent's output is not another agent's business (docs/decisions/0122).
 */
const HEADING = 'Earlier in this conversation the user asked (oldest first):';
const SEPARATOR = `\n\n---\n${HEADING}\n`;

/** Earlier questions carried at most, and their length each: enough for "and in 2023?" to mean something. */
export const MAX_EARLIER_TURNS = 4;
const MAX_EARLIER_TURN_CHARS = 300;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_EARLIER_TURN_CHARS);

/** The question with the earlier questions after it; the question alone when there are none. */
export function withEarlierTurns(question: string, earlier: string[]): string {
  const turns = earlier.map(oneLine).filter(Boolean).slice(-MAX_EARLIER_TURNS);
  if (!turns.length) return question;
  return `${question}${SEPARATOR}${turns.map((turn, index) => `${index + 1}. ${turn}`).join('\n')}`;
}

/** The question and the earlier questions a message carries (none when it carries none). Linear: one search, one split. */
export function readEarlierTurns(text: string): { question: string; earlier: string[] } {
  const at = text.lastIndexOf(SEPARATOR);
  if (at < 0) return { question: text, earlier: [] };
  const earlier = text
    .slice(at + SEPARATOR.length)
    .split('\n')
    .flatMap((line) => {
      const dot = line.indexOf('. ');
      return dot > 0 && /^\d+$/.test(line.slice(0, dot)) ? [line.slice(dot + 2).trim()] : [];
    })
    .filter(Boolean)
    .slice(-MAX_EARLIER_TURNS);
  return { question: text.slice(0, at).trim(), earlier };
}
