import { describe, expect, it } from 'vitest';
import { withoutStructuredBlocks } from '../../pages/src/explorer/structured-blocks.ts';
import { blockNesting } from '../../pages/src/markdown/block-nesting.ts';
import { markdownToHtml, MAX_BLOCK_NESTING, RENDER_LIMIT } from '../../pages/src/markdown/markdown-html.ts';

/** Other parties' Markdown (READMEs, agents' answers) becomes HTML within fixed costs and never throws (the DOM sanitiser is tested in the browser: test/e2e/screens.test.ts). */
describe('the client’s Markdown renderer on hostile text', () => {
  it.each([
    ['50 000 “>” (nested block quotes)', `${'>'.repeat(50_000)} token?`],
    ['50 000 “- ” (nested list items)', `${'- '.repeat(50_000)}x`],
    ['nested ordered lists and quotes mixed', `${'> 1. '.repeat(20_000)}x`],
  ])('%s: shown as escaped plain text with a note, instead of overflowing marked’s stack', (_, text) => {
    const rendered = markdownToHtml(`<form>\n${text}`);
    expect(rendered.notices).toContain(`Shown as plain text: its Markdown nests deeper than ${MAX_BLOCK_NESTING} levels.`);
    expect(rendered.html.startsWith('<pre class="markdown-plain">&#60;form&#62;\n')).toBe(true);
    expect(rendered.html).not.toMatch(/<(?!\/?pre)/);
  });

  it('50 000 “[” and 50 000 “*” render as text, within the 64 kB cap', () => {
    for (const ch of ['[', '*', '`', '<']) {
      const rendered = markdownToHtml(ch.repeat(50_000));
      expect(rendered.notices).toEqual([]);
      expect(rendered.html.length).toBeGreaterThan(0);
    }
  });

  it('nesting up to the limit still renders as Markdown', () => {
    const rendered = markdownToHtml(`${'> '.repeat(MAX_BLOCK_NESTING)}deep`);
    expect(rendered.notices).toEqual([]);
    expect(rendered.html.match(/<blockquote>/g)).toHaveLength(MAX_BLOCK_NESTING);
  });

  it('a text longer than the cap is cut to 64 kB with a note', () => {
    const rendered = markdownToHtml('word '.repeat(40_000));
    expect(RENDER_LIMIT).toBe(64 * 1024);
    expect(rendered.notices).toEqual(['Truncated: only the first 64 kB of 196 kB are shown.']);
    expect(rendered.html.length).toBeLessThan(RENDER_LIMIT + 100);
  });

  it('when rendering throws, the text is shown escaped with a note, and nothing is thrown to the screen', () => {
    const rendered = markdownToHtml('# Title\n\n![x](https://a.example/x.png) <b>bold</b>', {
      image: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    expect(rendered.notices).toEqual(['Shown as plain text: it could not be rendered as Markdown.']);
    expect(rendered.html).toBe('<pre class="markdown-plain"># Title\n\n![x](https://a.example/x.png) &#60;b&#62;bold&#60;/b&#62;</pre>');
  });

  it('images are never loaded: a web image becomes a link to it, any other its alt text; task boxes are characters, not inputs', () => {
    const { html } = markdownToHtml(
      '![tracker](https://evil.example/p.png "t") ![local](data:image/png;base64,AAAA)\n\n- [x] done\n- [ ] open',
    );
    expect(html).toContain('<a href="https://evil.example/p.png">image: tracker</a>');
    expect(html).toContain('<span>[image: local]</span>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<input');
    expect(html).toContain('☑ done');
    expect(html).toContain('☐ open');
  });

  it('breaks: a line break is a break only when asked (agents’ answers)', () => {
    expect(markdownToHtml('a\nb', { breaks: true }).html).toContain('a<br>b');
    expect(markdownToHtml('a\nb').html).not.toContain('<br>');
  });
});

describe('block nesting, counted in one pass', () => {
  it('counts quote and list markers opening a line, the deepest line wins', () => {
    expect(blockNesting('plain text')).toBe(0);
    expect(blockNesting('> a\n> > b\n- > - c')).toBe(3);
    expect(blockNesting('1. a\n   2) b\n10. > c')).toBe(2);
    expect(blockNesting('-not a list\n2024.x\n*emphasis*')).toBe(0);
    expect(blockNesting('a > b - c')).toBe(0);
  });
});

describe('a README without its structured blocks', () => {
  it('leaves out each <use_cases> and <payload_requirements> block up to its first closing tag', () => {
    const readme = '# A\n<use_cases>\n- one\n</use_cases>\nmiddle\n<payload_requirements kind="x">\n{}\n</Payload_Requirements >\nend';
    expect(withoutStructuredBlocks(readme)).toBe('# A\n\nmiddle\n\nend');
  });

  it('keeps a block that never closes, and still removes later blocks of the other kind', () => {
    expect(withoutStructuredBlocks('<use_cases> a <payload_requirements>b</payload_requirements> c')).toBe('<use_cases> a  c');
  });

  it('returns on 80 kB of openers that never close (the old lazy regex rescanned the rest of the text for each)', () => {
    const text = '<use_cases '.repeat(4_000) + '<payload_requirements>'.repeat(1_500);
    expect(withoutStructuredBlocks(text)).toBe(text);
  });
});
