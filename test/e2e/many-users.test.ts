import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, waitForAnswer } from './helpers/router-client.ts';
import { startTempStack, type TempStack } from './helpers/temp-stack.ts';

/** Different questions get different answers from the offline specialist, which is deterministic per question. */
const QUESTIONS = [
  'What was Apple’s total revenue in its latest annual report?',
  'What was Microsoft’s net income in its latest annual report?',
  'How much cash did Tesla hold at the end of its latest fiscal year?',
  'What were Amazon’s operating expenses in its latest annual report?',
  'What are the main risk factors in NVIDIA’s latest 10-K?',
];

describe('100 concurrent users', () => {
  let temp: TempStack;

  beforeAll(async () => {
    temp = await startTempStack({ client: false });
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it('each get their own answer: none lost, none crossed', async () => {
    const router = temp.stack.urls.router;
    const users = Array.from({ length: 100 }, (_, index) => ({ index, question: QUESTIONS[index % QUESTIONS.length]! }));
    const answered = await Promise.all(
      users.map(async (user) => {
        const requestId = await ask(router, user.question);
        const answer = await waitForAnswer(router, requestId, { timeoutMs: 240_000 });
        return { ...user, requestId, text: JSON.stringify(answer.analysis_result.analysis) };
      }),
    );

    expect(new Set(answered.map((user) => user.requestId)).size).toBe(100);
    const answersByQuestion = new Map<string, Set<string>>();
    for (const user of answered) answersByQuestion.set(user.question, (answersByQuestion.get(user.question) ?? new Set()).add(user.text));
    // Every user who asked the same question got the same answer, and no two questions share an answer:
    // an answer delivered to the wrong user would break one or the other.
    for (const [question, answers] of answersByQuestion) expect(answers.size, question).toBe(1);
    const distinct = new Set([...answersByQuestion.values()].map((answers) => [...answers][0]));
    expect(distinct.size).toBe(QUESTIONS.length);
  }, 300_000);
});
