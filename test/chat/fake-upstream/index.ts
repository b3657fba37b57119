/**
 * A scripted OpenAI-compatible upstream for the chat tests. The scenario is the last user message's
 * `scenario: <name>`; `PUT /fixtures/<name>` stores a recorded stream that `scenario: replay <name>` serves
 * back; `scenario: slow <ms>` answers as usual after that long; `GET /last-request` returns the last request received;
 * a request to 127.0.0.1 goes to the real network.
 */
const fixtures = new Map<string, string>();
let lastRequest: unknown = null;

const encoder = new TextEncoder();
const sse = (value: unknown) => encoder.encode(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);

function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function streamOf(events: unknown[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(sse(event));
      controller.close();
    },
  });
}

const STREAM_HEADERS = { 'content-type': 'text/event-stream' };

/**
 * The agentic choice (llm1-agentic's send_to_agent tool): this model picks the last agent of the fenced JSON list,
 * so a test can tell its choice from the rules' (the first), and rewords the user's first message.
 */
function chooseLastAgent(messages: { role: string; content: string }[]): Response {
  const users = messages.filter((m) => m.role === 'user');
  const list = JSON.parse(/```json\n([\s\S]*)\n```/.exec(users.at(-1)?.content ?? '')?.[1] ?? '[]') as { address: string }[];
  const args = {
    address: list.at(-1)?.address,
    message: `Reworded: ${users[0]?.content}`,
    reason: 'the fake model prefers the last agent listed',
  };
  const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'send_to_agent', arguments: JSON.stringify(args) } };
  return new Response(streamOf([chunk({ role: 'assistant', tool_calls: [call] }), chunk({}, 'tool_calls'), '[DONE]']), {
    headers: STREAM_HEADERS,
  });
}

async function completions(request: Request): Promise<Response> {
  const body = (await request.json()) as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] };
  lastRequest = { body, authorization: request.headers.get('authorization') };
  if (body.tools?.some((tool) => tool.function.name === 'send_to_agent')) return chooseLastAgent(body.messages);
  const last = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const scenario = /scenario:\s*([\w-]+)(?:\s+([\w.-]+))?/.exec(last);
  switch (scenario?.[1]) {
    case 'replay': {
      const text = fixtures.get(scenario[2] ?? '');
      return text ? new Response(text, { headers: STREAM_HEADERS }) : new Response('no such fixture', { status: 500 });
    }
    case 'rate-limited':
      return Response.json({ error: { message: 'Too many requests' } }, { status: 429, headers: { 'retry-after': '7' } });
    case 'overloaded':
      return Response.json({ error: { message: 'Service unavailable' } }, { status: 503 });
    case 'no-model':
      return Response.json({ error: { message: 'The model `fake-model` does not exist.' } }, { status: 404 });
    case 'bad-key':
      return Response.json({ error: { message: 'Incorrect API key provided' } }, { status: 401 });
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, Number(scenario[2] ?? 0)));
      return completions(
        new Request(request.url, { method: 'POST', body: JSON.stringify({ ...body, messages: [{ role: 'user', content: 'hello' }] }) }),
      );
    case 'broken-midway':
      return new Response(streamOf([chunk({ content: 'partial ' }), { error: { message: 'model crashed' } }]), { headers: STREAM_HEADERS });
    default:
      return new Response(
        streamOf([
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'Hello' }),
          chunk({ content: ' from upstream.' }),
          chunk({}, 'stop'),
          { ...chunk({}), choices: [], usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 } },
          '[DONE]',
        ]),
        { headers: STREAM_HEADERS },
      );
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { hostname, pathname } = new URL(request.url);
    // Loopback goes to the real network, so a test meets workerd's own refused connection (a dead webhook).
    if (hostname === '127.0.0.1') return fetch(request);
    if (request.method === 'POST' && pathname === '/v1/chat/completions') return completions(request);
    if (request.method === 'PUT' && pathname.startsWith('/fixtures/')) {
      fixtures.set(pathname.slice('/fixtures/'.length), await request.text());
      return new Response(null, { status: 204 });
    }
    if (pathname === '/last-request') return Response.json(lastRequest);
    return new Response('not found', { status: 404 });
  },
};
