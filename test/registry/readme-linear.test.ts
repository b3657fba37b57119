import { beforeAll, describe, expect, it } from 'vitest';
import { README_MAX_CHARS, type RegistrationResponse } from '../../schemas/registry.ts';
import { analyzeReadme } from '../../workers/registry/src/agents/readme.ts';
import { freshIdentity, json, migrate, newKey, registered } from './helpers.ts';

beforeAll(migrate);

/** Fills a README of the largest accepted size with one shape repeated. */
const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((README_MAX_CHARS - prefix.length) / unit.length));

/**
 * Shapes that make backtracking regexes quadratic: openings that never close, closings that never open,
 * badges cut short at every point, angle brackets without an end. A linear reader handles each at once;
 * the old regexes took seconds of CPU on one of them (the timeout below is far above what linear needs).
 */
const PATHOLOGICAL: Record<string, string> = {
  'unclosed openings': fill('<description>'),
  'openings with unclosed attributes': fill('<description '),
  'nested unclosed payloads': fill('<payload_requirements><payload><requirement>'),
  'closings without openings': fill('</description >'),
  'badges without a closing bracket': fill('![tag:'),
  'badges without a closing parenthesis': fill('![tag:x]('),
  'image openings in a paragraph': fill('![', '# T\n\nProse.\n\n'),
  'long badge names': fill(`![tag:${'n'.repeat(199)}`),
  'angle brackets without an end': fill('<'),
  'angle brackets without an end, in a description': `<description>${'<'.repeat(README_MAX_CHARS - 40)}</description>`,
  'blank-looking lines': fill('\n \t '),
  'use-case lists that never end': fill('\n- x', '## Use cases'),
  'spaces before a closing': fill(' ', '<description>x</description'),
};

describe('README analysis runs in linear time on hostile READMEs', () => {
  it.each(Object.entries(PATHOLOGICAL))(
    '%s',
    (_, readme) => {
      expect(readme.length).toBeGreaterThan(README_MAX_CHARS - 200);
      const analysis = analyzeReadme(readme);
      expect(analysis.functions.length).toBeLessThan(README_MAX_CHARS);
    },
    2_000,
  );

  it('registers an agent whose README is one of them, through the API', async () => {
    const key = await newKey(['read', 'write']);
    const response = await registered(freshIdentity(), key.key, {
      profile: { description: 'x', readme: PATHOLOGICAL['badges without a closing parenthesis'], avatar_url: '', starter_prompts: [] },
    });
    expect(response.status).toBe(200);
    expect((await json<RegistrationResponse>(response)).readme.tags).toEqual([]);
  }, 5_000);

  it('still reads what well-formed READMEs declare', () => {
    const readme = [
      '# Weather',
      '![tag:weather](https://b.example/x) ![TAG:domain/climate](https://img.shields.io/badge/Climate-3d8bd3)',
      '',
      'Hourly   forecasts for <b>any</b> city.',
      '',
      '<use_cases><use_case> Rain tomorrow </use_case><USE_CASE>Wind</USE_CASE></use_cases>',
      '<payload_requirements><payload><name>forecast</name><requirement><parameter>city</parameter>',
      '<description>The city</description><required>no</required></requirement></payload></payload_requirements>',
    ].join('\n');
    expect(analyzeReadme(readme)).toMatchObject({
      tags: ['weather', 'climate'],
      domain_tags: [{ domain: 'climate', label: 'Climate', color: '3d8bd3' }],
      description: 'Hourly forecasts for any city.',
      use_cases: ['Rain tomorrow', 'Wind'],
      functions: [{ name: 'forecast', parameters: [{ name: 'city', description: 'The city', required: false }] }],
    });
    expect(analyzeReadme('# T\n\n## Use cases\n- one\n* two\n\n## Other\n- three').use_cases).toEqual(['one', 'two']);
    expect(analyzeReadme('<description a="1">Tagged</description >\n\nProse.').description).toBe('Tagged');
  });
});
