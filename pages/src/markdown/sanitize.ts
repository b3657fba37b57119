import DOMPurify, { type Config } from 'dompurify';

/**
 * What another party's HTML may keep: text structure only. No styles, forms, buttons, inputs, frames,
 * objects, media or SVG (a README could otherwise draw a fake "paste your admin token" page over the app),
 * no ids or names (DOM clobbering), no images (markdown-html.ts turns them into links).
 */
const PROFILE: Config = {
  ALLOWED_TAGS: [
    'a',
    'abbr',
    'b',
    'blockquote',
    'br',
    'caption',
    'code',
    'dd',
    'del',
    'details',
    'div',
    'dl',
    'dt',
    'em',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'i',
    'ins',
    'kbd',
    'li',
    'mark',
    'ol',
    'p',
    'pre',
    'q',
    's',
    'samp',
    'small',
    'span',
    'strong',
    'sub',
    'summary',
    'sup',
    'table',
    'tbody',
    'td',
    'tfoot',
    'th',
    'thead',
    'tr',
    'u',
    'ul',
  ],
  ALLOWED_ATTR: ['href', 'title', 'align', 'colspan', 'rowspan', 'start', 'class', 'data-domain'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // Absolute web and mail links only: a relative link or fragment would steer the app itself (`#keys`).
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  // Attributes that hold no URL, so the URL rule above does not apply to them.
  ADD_URI_SAFE_ATTR: ['align', 'colspan', 'rowspan', 'start', 'data-domain'],
};

/** Classes the text may use: code languages and the badges the README renderer makes; never the app's own layout classes. */
const ALLOWED_CLASS = /^(?:language-[\w-]{1,40}|ui-tag|readme-badge|domain|broken|markdown-plain)$/;

const LINK_REL = 'noopener noreferrer nofollow';

/** One purifier for other parties' content, so its hooks touch nothing else. */
const purifier = DOMPurify(window);
purifier.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName !== 'class') return;
  data.attrValue = data.attrValue
    .split(/\s+/)
    .filter((name) => ALLOWED_CLASS.test(name))
    .join(' ');
  if (!data.attrValue) data.keepAttr = false;
});
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A' || !node.hasAttribute('href')) return;
  node.setAttribute('rel', LINK_REL);
  node.setAttribute('target', '_blank');
});

/** HTML from another party, reduced to the strict profile above. */
export function sanitize(html: string): string {
  return purifier.sanitize(html, { ...PROFILE, RETURN_TRUSTED_TYPE: false });
}
