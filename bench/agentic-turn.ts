import { type ChatCompletionChunk, ChatCompletionChunk as chunkSchema } from '../schemas/chat.ts';

/**
 * One streamed agentic turn as the client saw it: when it asked, when the response began, when each step was
 * made (the step's own `at`, the chat Worker's clock: one machine, one clock), when [DONE] came.
 */
export interface StreamedTurn {
  start: number;
  headers: number;
  done: number;
  /** Step name → when the chat Worker made it (epoch ms); the first of each name. */
  steps: Map<string, number>;
  /** Requests sent again because the runtime had closed the kept-alive connection they went out on. */
  resent: number;
  /** The uAgents session the question went in (the `sent` step's), to find the specialist's timing line. */
  session: string | null;
  stepsBeforeContent: number;
  content: string;
}

/**
 * workerd closes a connection idle for 5 s; Node's fetch keeps one 4 s, by a timer that fires late on a loaded
 * machine, so a request can go out on a connection the runtime is closing, and fail before it was read
 * ("other side closed", ECONNRESET). The stock `openai` SDK sends such a request again (twice at most); so does the bench.
 */
const closedBeforeAnswer = (error: unknown) => {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
};
const MAX_RESENDS = 2;

/** Streams one completion, reading each chunk as it comes; throws on an error status or a connection lost mid-answer. */
export async function streamTurn(chatUrl: string, key: string, messages: unknown[], session: string | null): Promise<StreamedTurn> {
  const start = Date.now();
  const send = () =>
    fetch(`${chatUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) },
      body: JSON.stringify({ model: 'llm1-agentic', stream: true, messages }),
    });
  let resent = 0;
  let response: Response | undefined;
  while (!response) {
    try {
      response = await send();
    } catch (error) {
      if (!closedBeforeAnswer(error) || resent === MAX_RESENDS) throw error;
      resent += 1;
    }
  }
  if (!response.ok) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  const headers = Date.now();
  const steps = new Map<string, number>();
  let sentIn: string | null = null;
  let stepCount = 0;
  let stepsBeforeContent = -1;
  let content = '';
  let buffered = '';
  const take = (block: string) => {
    if (!block.startsWith('data: ') || block === 'data: [DONE]') return;
    const chunk: ChatCompletionChunk = chunkSchema.parse(JSON.parse(block.slice('data: '.length)));
    for (const step of chunk.intermediate_steps ?? []) {
      if (!steps.has(step.step)) steps.set(step.step, Date.parse(step.at));
      if (step.step === 'sent') sentIn ??= step.session;
    }
    stepCount += chunk.intermediate_steps?.length ?? 0;
    const delta = chunk.choices[0]?.delta.content ?? '';
    if (delta && stepsBeforeContent < 0) stepsBeforeContent = stepCount;
    content += delta;
  };
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffered += decoder.decode(read.value, { stream: true });
    const blocks = buffered.split('\n\n');
    buffered = blocks.pop()!;
    for (const block of blocks) take(block);
  }
  take(buffered);
  return { start, headers, done: Date.now(), steps, resent, session: sentIn, stepsBeforeContent: Math.max(0, stepsBeforeContent), content };
}
