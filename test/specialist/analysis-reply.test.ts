import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analysisResultMessageSchema, type AnalysisItem } from '../../schemas/messages.ts';
import { requestEnvelope, send, SPECIALIST } from './helpers/envelopes.ts';
import { installFakeNetwork, ROUTER, type FakeNetwork } from './helpers/fake-network.ts';

let network: FakeNetwork;
beforeEach(() => {
  network = installFakeNetwork();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Asks the specialist through its webhook and returns the analysis it sends back in the same session. */
async function ask(question: string): Promise<AnalysisItem[]> {
  const envelope = requestEnvelope({ request: question });
  const response = await send(envelope);
  expect(response.status).toBe(200);
  await vi.waitFor(() => expect(network.delivered.some((d) => d.envelope.session === envelope.session)).toBe(true), { timeout: 25_000 });
  const reply = network.delivered.find((d) => d.envelope.session === envelope.session)!;
  expect(reply.envelope.sender).toBe(SPECIALIST.address);
  expect(reply.envelope.target).toBe(ROUTER.address);
  return analysisResultMessageSchema.parse(reply.payload).analysis_result.analysis;
}

describe('the analysis sent back to the router', () => {
  it('answers the demo question with Apple’s figures, in the request’s session, one item per worker message', async () => {
    const items = await ask("How did Apple's revenue and net margin change over the last three fiscal years?");
    expect(items.map((item) => [item.role, item.name])).toEqual([
      ['plan', 'Supervisor'],
      ['search', 'Search Worker'],
      ['filings', 'Filings Analyst'],
      ['answer', 'Supervisor'],
    ]);
    const answer = items.at(-1)!.content;
    // FY2022-FY2024 from Apple's 10-K filings: revenue 394,328 / 383,285 / 391,035 and net income 99,803 / 96,995 / 93,736 ($M).
    expect(answer).toContain(
      'Revenue: $394.33B in FY2022 (+7.8%), $383.29B in FY2023 (-2.8%), $391.04B in FY2024 (+2.0%); -0.8% from FY2022 to FY2024.',
    );
    expect(answer).toContain(
      'Net margin: 25.3% in FY2022 (-0.6 pts), 25.3% in FY2023 (0.0 pts), 24.0% in FY2024 (-1.3 pts); -1.3 pts from FY2022 to FY2024.',
    );
    expect(answer.indexOf('Revenue:')).toBeLessThan(answer.indexOf('Net margin:'));
    expect(answer).not.toContain('FY2021 (');
    const plan = items[0]!.content;
    expect(plan).toContain('Companies: Apple Inc. (AAPL).');
    expect(plan).toContain('Figures: revenue, net margin.');
    expect(plan).toContain('Period: the last 3 fiscal years.');
    const filings = items[2]!.content;
    expect(filings).toContain('| FY2024 (2023-10-01 to 2024-09-28) | $391.04B (+2.0%) | 24.0% (-1.3 pts) | $93.74B (-3.4%) |');
    expect(filings).toContain('10-K 0000320193-24-000123 filed 2024-11-01');
    expect(items[1]!.content).toContain('10-K of Apple Inc. (AAPL) (CIK 0000320193), period ending 2024-09-28');
  });

  it('asks EDGAR with the configured User-Agent, for the ticker map, the company facts and the submissions', async () => {
    await ask('What was Microsoft revenue in fiscal 2023?');
    const paths = network.edgarRequests.map((r) => new URL(r.url).pathname);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/xbrl/companyfacts/CIK0000789019.json', '/submissions/CIK0000789019.json', '/LATEST/search-index']),
    );
    expect(new Set(network.edgarRequests.map((r) => r.userAgent))).toEqual(new Set(['Rendezvous demo admin@example.com']));
  });

  it('compares companies named by ticker and by name', async () => {
    const items = await ask('Compare MSFT and Alphabet operating margin in fiscal 2023');
    expect(items.filter((item) => item.role === 'filings').map((item) => item.content.split(' (')[0])).toEqual([
      'MICROSOFT CORP',
      'Alphabet Inc.',
    ]);
    const answer = items.at(-1)!.content;
    // Microsoft FY2023: 88,523 / 211,915; Alphabet 2023: 84,293 / 307,394.
    expect(answer).toContain('Operating margin: 41.8% in FY2023 (-0.3 pts)');
    expect(answer).toContain('Operating margin: 27.4% in FY2023 (+1.0 pts)');
    expect(answer).toContain('Operating margin, latest fiscal year: MICROSOFT 41.8% (FY2023) vs Alphabet 27.4% (FY2023)');
  });

  it('compares per-share figures only within one filing, so a share split does not show as a collapse', async () => {
    const items = await ask('NVDA diluted EPS since 2023');
    // FY2023 EPS is 0.17 in the FY2025 10-K (after the 10-for-1 split); FY2022's 3.85 is from before it.
    expect(items.at(-1)!.content).toContain(
      '- Diluted EPS: $0.17 in FY2023, $1.19 in FY2024 (+600.0%), $2.94 in FY2025 (+147.1%); +1629.4% from FY2023 to FY2025.',
    );
  });

  it('says which company it could not find, and answers nevertheless', async () => {
    const items = await ask('How is the weather today?');
    expect(items.map((item) => item.role)).toEqual(['plan', 'search', 'answer']);
    expect(items[0]!.content).toContain('Companies: none recognised.');
    expect(items.at(-1)!.content).toContain('I could not tell which company the question is about.');
  });

  it('reports a company whose filings EDGAR does not have', async () => {
    const items = await ask("What was Tesla's revenue last year?");
    expect(items.find((item) => item.role === 'filings')!.content).toBe(
      'No figures: EDGAR has no XBRL financial data for Tesla, Inc. (TSLA, CIK 0001318605).',
    );
    expect(items.at(-1)!.content).toContain('No figures for Tesla, Inc. (TSLA)');
  });

  it('retries while EDGAR is unavailable, then tells the sender the analysis failed', async () => {
    // Only the company facts fail: every try asks for them (failures are not cached), so the count is exact.
    network.edgarFailures.push({ path: /companyfacts\/CIK0001018724/, status: 503 });
    const items = await ask('What was Amazon free cash flow in 2024?');
    expect(items).toEqual([{ role: 'error', name: 'Supervisor', content: expect.stringContaining('answered 503') }]);
    expect(network.edgarRequests.filter((r) => r.url.endsWith('/api/xbrl/companyfacts/CIK0001018724.json'))).toHaveLength(3);
  }, 30_000);
});

// Last: its questions fill the isolate's EDGAR cache, which the tests above count requests through.
describe('the specialist’s timing log (bench:e2e reads it)', () => {
  it('logs where each analysis’s time went once per queue batch: a list naming every answered session once', async () => {
    const log = vi.spyOn(console, 'log');
    const questions = [
      'What was Apple’s total revenue in its latest annual report?',
      'What was Microsoft’s net income in its latest annual report?',
    ];
    await Promise.all(questions.map(ask));
    const sessions = [...new Set(network.delivered.map((d) => d.envelope.session))];
    const lines = log.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('specialist timing '));
    const batches = lines.map((line) => JSON.parse(line.slice('specialist timing '.length)) as unknown);
    expect(batches.every((batch) => Array.isArray(batch))).toBe(true);
    const times = (batches as Record<string, unknown>[][]).flat();
    expect(lines.length).toBeLessThanOrEqual(sessions.length);
    expect(times.map((entry) => entry.session).sort()).toEqual(sessions.sort());
    for (const entry of times)
      expect(Object.keys(entry).sort()).toEqual(['chat_ms', 'edgar_ms', 'queued_ms', 'reply_ms', 'session', 'team_ms']);
  });
});
