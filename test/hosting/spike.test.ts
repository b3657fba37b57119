import { SELF } from 'cloudflare:test';
import { it, expect } from 'vitest';
it('spike', async () => { const r = await SELF.fetch('http://h/'); expect(await r.text()).toBe('x'); });
