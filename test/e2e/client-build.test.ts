import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser.ts';

/** The API origins the build is configured with; the browser reaches them only through page.route (they do not exist). */
const API_URLS = {
  VITE_ROUTER_URL: 'https://router.rendezvous.test',
  VITE_REGISTRY_URL: 'https://registry.rendezvous.test',
  VITE_CHAT_URL: 'https://chat.rendezvous.test',
};
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Cloudflare Pages' `_headers` for `/*`, as the site will serve them. */
function readHeadersFile(text: string): Record<string, string> {
  const lines = text.split('\n');
  const rules = lines.slice(lines.indexOf('/*') + 1).filter((line) => line.startsWith('  '));
  return Object.fromEntries(rules.map((line) => [line.slice(2, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

/**
 * The production build of the client, served as Pages serves it (static files with the generated `_headers`),
 * on a port of its own: no stack, no shared port. It loads only the first screen's chunks, and runs under the
 * production CSP (no inline styles, calls only to the configured API origins) without a violation.
 */
describe('the client’s production build under its own headers', () => {
  let outDir: string;
  let server: Server;
  let site: string;
  let browser: Browser;
  let headers: Record<string, string>;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'rendezvous-client-build-'));
    const saved = { ...process.env };
    Object.assign(process.env, API_URLS);
    try {
      await build({ configFile: 'pages/vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
    } finally {
      for (const name of Object.keys(API_URLS)) if (saved[name] === undefined) delete process.env[name];
      Object.assign(process.env, saved);
    }
    headers = readHeadersFile(await readFile(join(outDir, '_headers'), 'utf8'));
    const serve = async (request: IncomingMessage, response: ServerResponse) => {
      const path = normalize(new URL(request.url!, 'http://site').pathname).replace(/^(\.\.[/\\])+/, '');
      const file = path === '/' ? '/index.html' : path;
      try {
        const body = await readFile(join(outDir, file));
        response.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        response.writeHead(404, headers).end();
      }
    };
    server = createServer((request, response) => void serve(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  /** A page, the scripts it loaded and the CSP violations Chromium reported on it. */
  async function openPage(): Promise<{ page: Page; scripts: string[]; violations: string[] }> {
    const page = await browser.newPage();
    const scripts: string[] = [];
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    return { page, scripts, violations };
  }

  it('the generated _headers carry the CSP with the configured API origins and the framing headers', () => {
    expect(headers['Content-Security-Policy']).toContain(
      "connect-src 'self' https://router.rendezvous.test https://registry.rendezvous.test https://chat.rendezvous.test",
    );
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(headers['Content-Security-Policy']).toContain("style-src 'self';");
    expect(headers['X-Frame-Options']).toBe('DENY');
  });

  it('the first screen loads without zod, marked or DOMPurify; the router API loads when the question box is focused', async () => {
    const { page, scripts } = await openPage();
    await page.goto(site);
    await page.locator('textarea[name="question"]').waitFor();
    const names = () => scripts.map((path) => path.replace(/^\/assets\/|-[\w-]{8}\.js$/g, ''));
    expect(names()).not.toEqual(expect.arrayContaining([expect.stringMatching(/SafeMarkdown|schemas|router-api/)]));
    expect(names()).toContain('AskScreen');
    await page.locator('textarea[name="question"]').focus();
    await expect.poll(names).toContain('router-api');
    expect(names()).not.toContain('SafeMarkdown');
    await page.close();
  });

  it('every screen opens under the production CSP without a violation', async () => {
    const { page, violations } = await openPage();
    await page.goto(site);
    await page.locator('textarea[name="question"]').focus();
    for (const [title, screen] of [
      ['Agents', '.explorer'],
      ['Chat', '.playground'],
      ['API keys', '.keys'],
      ['Ask an agent', '.reference'],
    ] as const) {
      await page.getByRole('button', { name: title, exact: true }).click();
      await page.locator(screen).waitFor();
    }
    expect(violations).toEqual([]);
    await page.close();
  });

  it('a hostile answer shows inert under the production CSP', async () => {
    const { page, scripts } = await openPage();
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'content-type',
    };
    const overlay =
      '<style>.shell{display:none}</style><div style="position:fixed;inset:0"><form><input type="password"><button>Go</button></form></div>';
    await page.route(
      (url) => url.origin === API_URLS.VITE_ROUTER_URL,
      (route) => {
        const request = route.request();
        if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
        if (request.url().endsWith('/api/send-request'))
          return route.fulfill({ json: { status: 'request_sent', request_id: crypto.randomUUID() }, headers: cors });
        return route.fulfill({
          json: {
            analysis_result: { analysis: [{ role: 'x', name: 'Overlay', content: `${overlay}\n\n**bold** [src](https://a.example/)` }] },
          },
          headers: cors,
        });
      },
    );
    await page.goto(site);
    await page.locator('textarea[name="question"]').fill('Revenue?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.analysis strong', { hasText: 'bold' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.analysis :is(style, form, input, button, [style])').count()).toBe(0);
    expect(await page.locator('.analysis a').getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(scripts.some((path) => path.includes('SafeMarkdown'))).toBe(true);
    expect(await page.locator('.shell-header').isVisible()).toBe(true);
    await page.close();
  });
});
