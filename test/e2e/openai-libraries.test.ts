import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { APICallError, embed, generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDevKey } from '../../scripts/dev/bootstrap-key.ts';
import { readDevVars } from '../../scripts/stack/dev-vars.ts';
import { secretsFiles } from '../../scripts/stack/secrets.ts';
import { ROOT } from '../../scripts/stack/stack.ts';
import { createTempStack, type TempStack } from './helpers/temp-stack.ts';

/**
 * The two libraries most TypeScript AI apps are built on, unchanged and with their default settings, against the
 * running chat Worker (wrangler dev, the offline engine): the Vercel AI SDK 6 (its OpenAI provider, which uses the
 * Responses API, and its OpenAI-compatible provider, which uses chat completions) and LangChain.js.
 */

const SUMMARY_SOURCE = 'agents find each other here.';
const Tickers = z.object({ tickers: z.array(z.string()) });
const WEATHER = '18 °C and clear';

let temp: TempStack;
let key: string;
let baseURL: string;

beforeAll(async () => {
  temp = await createTempStack({ client: false });
  await temp.stack.start('registry');
  await temp.stack.start('chat');
  const adminToken = readDevVars(secretsFiles(ROOT, `${temp.dir}/secrets`).registry).ADMIN_TOKEN!;
  ({ key } = await createDevKey({
    registryUrl: temp.stack.urls.registry,
    adminToken,
    name: 'libraries e2e',
    permissions: ['chat', 'read'],
  }));
  baseURL = `${temp.stack.urls.chat}/v1`;
}, 180_000);
afterAll(async () => {
  await temp?.dispose();
});

describe('Vercel AI SDK 6, @ai-sdk/openai (Responses API by default)', () => {
  const provider = () => createOpenAI({ baseURL, apiKey: key });
  const weather = () =>
    tool({
      description: 'Get the current weather for a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => `${city}: ${WEATHER}`,
    });

  it('generateText, with a system prompt the engine reads as instructions', async () => {
    const { text, usage } = await generateText({
      model: provider()('llm1'),
      system: 'You are a helpful assistant. Answer MSFT questions briefly.',
      prompt: `Summarise: ${SUMMARY_SOURCE}`,
    });
    expect(text).toContain(SUMMARY_SOURCE);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  it('streamText', async () => {
    const result = streamText({ model: provider()('llm1'), prompt: 'echo: streamed through the AI SDK' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toContain('streamed through the AI SDK');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });

  it('generateObject with default settings', async () => {
    const { object } = await generateObject({ model: provider()('llm1'), schema: Tickers, prompt: 'Extract tickers: NVDA and AAPL' });
    expect(object).toEqual({ tickers: ['NVDA', 'AAPL'] });
  });

  it('tools: the call, its execution and the answer over two steps (store on: item references)', async () => {
    const { text, steps } = await generateText({
      model: provider()('llm1'),
      tools: { get_weather: weather() },
      stopWhen: stepCountIs(3),
      prompt: 'What is the weather in Paris?',
    });
    expect(steps[0]!.toolCalls).toEqual([expect.objectContaining({ toolName: 'get_weather', input: { city: 'Paris' } })]);
    expect(text).toContain(WEATHER);
  });

  it('streamText with tools streams the call', async () => {
    const result = streamText({ model: provider()('llm1'), tools: { get_weather: weather() }, prompt: 'Weather in Oslo?' });
    const calls = await result.toolCalls;
    expect(calls).toEqual([expect.objectContaining({ toolName: 'get_weather', input: { city: 'Oslo' } })]);
  });

  it('embed', async () => {
    const { embedding, usage } = await embed({ model: provider().embedding('embed1'), value: 'rain forecast' });
    expect(embedding).toHaveLength(100);
    expect(usage.tokens).toBeGreaterThan(0);
  });

  it('a bad key is an APICallError with status 401', async () => {
    const bad = createOpenAI({ baseURL, apiKey: 'rdv_nope' });
    const error = await generateText({ model: bad('llm1'), prompt: 'hi', maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(401);
  });
});

describe('Vercel AI SDK 6, @ai-sdk/openai-compatible (chat completions)', () => {
  const provider = (settings: { supportsStructuredOutputs?: boolean } = {}) =>
    createOpenAICompatible({ name: 'rendezvous', baseURL, apiKey: key, includeUsage: true, ...settings });

  it('generateText and streamText', async () => {
    const { text } = await generateText({
      model: provider().chatModel('llm1'),
      system: 'Be brief.',
      prompt: `Summarise: ${SUMMARY_SOURCE}`,
    });
    expect(text).toContain(SUMMARY_SOURCE);
    const result = streamText({ model: provider().chatModel('llm1'), prompt: 'echo: compatible stream' });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    expect(streamed).toContain('compatible stream');
  });

  it('generateObject with default settings: JSON mode gives the shape the prompt asks for', async () => {
    const { object } = await generateObject({
      model: provider().chatModel('llm1'),
      schema: Tickers,
      prompt: 'Extract tickers: NVDA and AAPL. Reply in JSON with the key "tickers".',
    });
    expect(object).toEqual({ tickers: ['NVDA', 'AAPL'] });
  });

  it('generateObject with default settings and no word "json": OpenAI’s 400, saying so', async () => {
    const error = await generateObject({
      model: provider().chatModel('llm1'),
      schema: Tickers,
      prompt: 'Extract tickers: NVDA',
      maxRetries: 0,
    }).catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
    expect((error as Error).message).toContain("must contain the word 'json'");
  });

  it('generateObject with supportsStructuredOutputs (the setting docs/openai-compatibility.md gives): the schema is sent and holds', async () => {
    const { object } = await generateObject({
      model: provider({ supportsStructuredOutputs: true }).chatModel('llm1'),
      schema: Tickers,
      prompt: 'Extract tickers: NVDA and AAPL',
    });
    expect(object).toEqual({ tickers: ['NVDA', 'AAPL'] });
  });

  it('tools, round trip', async () => {
    const { text, steps } = await generateText({
      model: provider().chatModel('llm1'),
      tools: {
        get_weather: tool({
          description: 'Get the current weather for a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => `${city}: ${WEATHER}`,
        }),
      },
      stopWhen: stepCountIs(3),
      prompt: 'What is the weather in Lisbon?',
    });
    expect(steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Lisbon' } });
    expect(text).toContain(WEATHER);
  });

  it('embed', async () => {
    const { embedding } = await embed({ model: provider().textEmbeddingModel('embed1'), value: 'parcel tracking' });
    expect(embedding).toHaveLength(100);
  });
});

describe('LangChain.js (@langchain/openai)', () => {
  const chat = (options: { useResponsesApi?: boolean } = {}) =>
    new ChatOpenAI({ model: 'llm1', apiKey: key, configuration: { baseURL }, maxRetries: 0, ...options });
  const weatherTool = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Get the current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };

  for (const useResponsesApi of [false, true]) {
    const api = useResponsesApi ? 'useResponsesApi' : 'chat completions';

    it(`invoke with a system and a human message (${api})`, async () => {
      const reply = await chat({ useResponsesApi }).invoke([
        new SystemMessage('You are a helpful assistant. You cover MSFT.'),
        new HumanMessage('Extract tickers: NVDA and AAPL'),
      ]);
      expect(reply.text).toContain('- NVDA\n- AAPL');
      expect(reply.text).not.toContain('MSFT');
      expect(reply.usage_metadata!.output_tokens).toBeGreaterThan(0);
    });

    it(`stream (${api})`, async () => {
      let text = '';
      for await (const chunk of await chat({ useResponsesApi }).stream('echo: streamed by LangChain')) text += chunk.text;
      expect(text).toContain('streamed by LangChain');
    });

    it(`bindTools, then the tool's result given back (${api})`, async () => {
      const model = chat({ useResponsesApi }).bindTools([weatherTool]);
      const question = new HumanMessage('What is the weather in Paris?');
      const call = await model.invoke([question]);
      expect(call.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
      const answer = await model.invoke([
        question,
        call as AIMessage,
        new ToolMessage({ content: WEATHER, tool_call_id: call.tool_calls![0]!.id! }),
      ]);
      expect(answer.text).toContain(WEATHER);
    });
  }

  for (const method of ['jsonSchema', 'functionCalling', 'jsonMode'] as const) {
    it(`withStructuredOutput, method ${method}`, async () => {
      const prompt =
        method === 'jsonMode' ? 'Extract tickers: NVDA and AAPL. Reply in json with the key "tickers".' : 'Extract tickers: NVDA and AAPL';
      const result = await chat().withStructuredOutput(Tickers, { method }).invoke(prompt);
      expect(result).toEqual({ tickers: ['NVDA', 'AAPL'] });
    });
  }

  it('withStructuredOutput through useResponsesApi', async () => {
    const result = await chat({ useResponsesApi: true }).withStructuredOutput(Tickers).invoke('Extract tickers: NVDA and AAPL');
    expect(result).toEqual({ tickers: ['NVDA', 'AAPL'] });
  });

  it('OpenAIEmbeddings', async () => {
    const embeddings = new OpenAIEmbeddings({ model: 'embed1', apiKey: key, configuration: { baseURL }, maxRetries: 0 });
    expect(await embeddings.embedQuery('rain forecast')).toHaveLength(100);
    const documents = await embeddings.embedDocuments(['rain forecast', 'stock portfolio']);
    expect(documents.map((vector) => vector.length)).toEqual([100, 100]);
  });
});
