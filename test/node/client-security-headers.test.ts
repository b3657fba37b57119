import { describe, expect, it } from 'vitest';
import { apiOrigins, contentSecurityPolicy, headersFile, securityHeaders } from '../../pages/build/security-headers.ts';

/** The browser client's response headers (served by Pages from the generated `_headers`, and by Vite's servers). */
describe('the client’s security headers', () => {
  it('allow calls only to the site and the configured API origins (the local stack’s by default)', () => {
    expect(apiOrigins({})).toEqual(['http://localhost:5001', 'http://localhost:8787', 'http://localhost:8788']);
    const configured = apiOrigins({
      VITE_ROUTER_URL: 'https://router.example.dev/',
      VITE_REGISTRY_URL: 'https://api.example.dev/v1',
      VITE_CHAT_URL: 'https://api.example.dev',
    });
    expect(configured).toEqual(['https://router.example.dev', 'https://api.example.dev']);
    const directives = contentSecurityPolicy(configured).split('; ');
    expect(directives).toContain("connect-src 'self' https://router.example.dev https://api.example.dev");
  });

  it('forbid framing, inline styles and scripts, foreign images, forms, plugins and <base>', () => {
    const directives = contentSecurityPolicy(['https://api.example.dev']).split('; ');
    expect(directives).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'none'",
        "object-src 'none'",
        "base-uri 'none'",
      ]),
    );
    expect(contentSecurityPolicy([])).not.toMatch(/unsafe|\*|ws:/);
    expect(contentSecurityPolicy([], true)).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('are written as a Pages _headers file for every path, with the framing, sniffing and referrer headers', () => {
    const file = headersFile(securityHeaders(['https://api.example.dev']));
    const lines = file.split('\n');
    expect(lines[1]).toBe('/*');
    expect(lines).toEqual(
      expect.arrayContaining([
        `  Content-Security-Policy: ${contentSecurityPolicy(['https://api.example.dev'])}`,
        '  X-Frame-Options: DENY',
        '  X-Content-Type-Options: nosniff',
        '  Referrer-Policy: no-referrer',
      ]),
    );
  });
});
