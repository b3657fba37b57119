import { Marked, type Tokens } from 'marked';
import { blockNesting } from './block-nesting.ts';

/** The most characters of one text rendered; the rest is left out with a note (a README may be far longer). */
export const RENDER_LIMIT = 64 * 1024;

/** The deepest block nesting rendered as Markdown; a text nested deeper is shown as plain text. */
export const MAX_BLOCK_NESTING = 16;

export type MarkdownOptions = {
  /** A line break in the text is a break in the output (agents' answers are written in lines). */
  breaks?: boolean;
  /** Renders an image token as the caller wants (README badges), or null for the default: a link to the image. */
  image?: (token: Tokens.Image) => string | null;
};

/** The HTML of a text (not yet sanitised: see sanitize.ts) and what the reader should know about how it was shown. */
export type RenderedMarkdown = { html: string; notices: string[] };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The text as it is, escaped: the fallback whenever it cannot be rendered as Markdown. */
export const plainTextHtml = (text: string) => `<pre class="markdown-plain">${escapeHtml(text)}</pre>`;

/**
 * Images are never loaded from the text (a remote image tells its host who reads the page, and can cover
 * the app): an http(s) image becomes a link to it, anything else its alt text.
 */
function imageAsLink(token: Tokens.Image): string {
  const label = escapeHtml(`image: ${token.text || token.href}`);
  return /^https?:\/\//i.test(token.href) ? `<a href="${escapeHtml(token.href)}">${label}</a>` : `<span>[${label}]</span>`;
}

/**
 * Another party's Markdown (a README, an agent's answer) as HTML, within fixed costs: at most RENDER_LIMIT
 * characters, shown as plain text when nested deeper than MAX_BLOCK_NESTING or when `marked` throws (its
 * stack overflows on inputs it did not expect). Never throws for any text.
 */
export function markdownToHtml(text: string, options: MarkdownOptions = {}): RenderedMarkdown {
  const notices: string[] = [];
  const shown = text.length > RENDER_LIMIT ? text.slice(0, RENDER_LIMIT) : text;
  if (shown !== text) notices.push(`Truncated: only the first ${RENDER_LIMIT / 1024} kB of ${Math.ceil(text.length / 1024)} kB are shown.`);
  if (blockNesting(shown) > MAX_BLOCK_NESTING) {
    notices.push(`Shown as plain text: its Markdown nests deeper than ${MAX_BLOCK_NESTING} levels.`);
    return { html: plainTextHtml(shown), notices };
  }
  const marked = new Marked({
    gfm: true,
    breaks: options.breaks ?? false,
    async: false,
    renderer: {
      image: (token) => options.image?.(token) ?? imageAsLink(token),
      // Task-list boxes as characters: the sanitiser allows no form controls.
      checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
    },
  });
  try {
    return { html: marked.parse(shown, { async: false }), notices };
  } catch {
    notices.push('Shown as plain text: it could not be rendered as Markdown.');
    return { html: plainTextHtml(shown), notices };
  }
}
