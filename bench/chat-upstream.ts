import { createServer, type Server } from 'node:http';

/**
 * A local OpenAI-compatible streaming server for the chat benchmark. `POST /v1/chat/completions` with model
 * `bench-<interval>ms-<tokens>` streams that many content chunks, one every interval (0 = as fast as the
 * socket takes them), then a finish chunk, a usage chunk and `data: [DONE]`. `GET /stats` counts streams
 * opened, finished and cut by the client (what a cancelled upstream request looks like from here).
 */
function streamShape(body: string): { tokens: number; intervalMs: number } {
  const model = (JSON.parse(body || '{}') as { model?: string }).model ?? '';
  const match = /^bench-(\d+)ms-(\d+)$/.exec(model);
  return match ? { intervalMs: Number(match[1]), tokens: Number(match[2]) } : { intervalMs: 0, tokens: 10 };
}

export interface UpstreamStats {
  opened: number;
  finished: number;
  aborted: number;
}

export function startFakeUpstream(port: number): Promise<{ server: Server; stats: UpstreamStats }> {
  const stats: UpstreamStats = { opened: 0, finished: 0, aborted: 0 };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1767225600, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (body += piece));
    request.on('end', () => {
      const options = streamShape(body);
      stats.opened++;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      let sent = 0;
      let done = false;
      response.on('close', () => {
        if (!done) stats.aborted++;
      });
      const next = () => {
        if (response.destroyed) return;
        if (sent === options.tokens) {
          response.write(chunk({}, 'stop'));
          response.write(
            `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1767225600, model: 'bench-model', choices: [], usage: { prompt_tokens: 12, completion_tokens: options.tokens, total_tokens: 12 + options.tokens } })}\n\n`,
          );
          done = true;
          stats.finished++;
          response.end('data: [DONE]\n\n');
          return;
        }
        const ok = response.write(chunk({ content: ` tok${sent++}` }));
        if (options.intervalMs > 0) setTimeout(next, options.intervalMs);
        else if (ok) setImmediate(next);
        else response.once('drain', next);
      };
      next();
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, stats })));
}
