/**
 * The offline SEC EDGAR: serves data/edgar at the paths data.sec.gov and www.sec.gov use
 * (`/submissions/CIK##########.json`, `/api/xbrl/companyfacts/CIK##########.json`, `/files/company_tickers.json`)
 * and EDGAR full-text search at `/LATEST/search-index`. Like the SEC, it refuses data requests whose
 * User-Agent names no contact address.
 *
 *   npx tsx scripts/dev/edgar-server.ts [--port 5010] [--data data/edgar]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { searchIndex, type SubmissionsDocument } from './edgar-search-index.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, data: { type: 'string' } } });
const port = Number(values.port ?? process.env.EDGAR_PORT ?? 5010);
const root = resolve(values.data ?? join(import.meta.dirname, '../../data/edgar'));

const submissions: SubmissionsDocument[] = readdirSync(join(root, 'submissions'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(root, 'submissions', file), 'utf8')) as SubmissionsDocument);

function send(response: ServerResponse, status: number, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://edgar.local');
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'only GET' });
  if (url.pathname === '/') {
    return send(response, 200, {
      name: 'edgar-dev-server',
      data: root,
      companies: submissions.map((doc) => ({ cik: doc.cik, name: doc.name, tickers: doc.tickers })),
      paths: [
        '/files/company_tickers.json',
        '/submissions/CIK##########.json',
        '/api/xbrl/companyfacts/CIK##########.json',
        '/LATEST/search-index?q=…&forms=…',
      ],
    });
  }
  const userAgent = request.headers['user-agent'] ?? '';
  console.log(`${new Date().toISOString()} GET ${url.pathname}${url.search} (${userAgent || 'no User-Agent'})`);
  if (!/\S+@\S+\.\S+/.test(userAgent)) {
    return send(response, 403, {
      error: 'Undeclared Automated Tool: name your tool and a contact e-mail address in the User-Agent header, as the SEC requires.',
    });
  }
  if (url.pathname === '/LATEST/search-index') {
    return send(response, 200, searchIndex(submissions, url.searchParams.get('q') ?? '', (url.searchParams.get('forms') ?? '').split(',')));
  }
  const file = normalize(join(root, decodeURIComponent(url.pathname)));
  if (!file.startsWith(root + sep) || !file.endsWith('.json')) return send(response, 404, { error: 'NoSuchKey' });
  try {
    return send(response, 200, readFileSync(file, 'utf8'));
  } catch {
    return send(response, 404, { error: 'NoSuchKey' });
  }
});

server.listen(port, () => console.log(`EDGAR offline data from ${root} on http://localhost:${port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
