/**
 * bench:chat's yardstick: a Worker that forwards a completion request to the upstream and relays its stream,
 * reading each piece in JavaScript and writing it on (as any Worker that looks at the tokens must), with no key,
 * no limits and no translation. What it adds to the first token is what the local runtime charges any such
 * Worker (the entry hop, the outbound fetch, the stream pump); the chat Worker's own work is what it adds on top.
 */
export default {
  async fetch(request: Request, env: { UPSTREAM_URL: string }): Promise<Response> {
    if (new URL(request.url).pathname === '/health') return new Response('ok');
    const upstream = await fetch(`${env.UPSTREAM_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
    });
    const reader = upstream.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  },
};
