import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { createMemo } from 'solid-js';
import type { DomainTag } from '../../../schemas/registry.ts';

const HEX_COLOR = /^[0-9a-f]{6}$/i;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Dark or light text, whichever reads on the badge colour. */
function textOn(hex: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#111' : '#fff';
}

/**
 * Tag badges (`![tag:<name>](…)`) render as tags, not as images from a badge service (the page may have no
 * network). Domain badges take the label and colour the registry read from them; a domain badge the
 * registry found invalid (its colour is not six hex digits) shows as broken, as it would on a badge service.
 */
function badgeHtml(token: Tokens.Image, domains: readonly DomainTag[]): string | null {
  if (!token.text.toLowerCase().startsWith('tag:')) return null;
  const name = token.text.slice(4).trim();
  if (!name.toLowerCase().startsWith('domain/')) return `<span class="ui-tag readme-badge">${escapeHtml(name)}</span>`;
  const domain = name.slice('domain/'.length).trim();
  const known = domains.find((tag) => tag.domain === domain);
  if (!known || !HEX_COLOR.test(known.color)) return `<span class="ui-tag readme-badge broken" title="invalid domain badge">${escapeHtml(domain)} ⚠</span>`;
  return `<span class="ui-tag readme-badge domain" style="background:#${known.color};color:${textOn(known.color)};border-color:#${known.color}">${escapeHtml(known.label)}</span>`;
}

/** The README's machine-readable blocks (spec "README conventions"), for callers that show them as structured fields instead. */
const STRUCTURED_BLOCKS = /<(use_cases|payload_requirements)(?:\s[^>]*)?>[\s\S]*?<\/\1\s*>/gi;

/**
 * An agent's README as Markdown, sanitised (it is written by whoever registered the agent). With
 * `structuredShown`, the `<use_cases>` and `<payload_requirements>` blocks are left out: the caller shows them.
 */
export function Readme(props: { text: string; domainTags?: readonly DomainTag[]; structuredShown?: boolean }) {
  const html = createMemo(() => {
    const domains = props.domainTags ?? [];
    const marked = new Marked({ gfm: true, async: false, renderer: { image: (token) => badgeHtml(token, domains) ?? false } });
    const text = props.structuredShown ? props.text.replace(STRUCTURED_BLOCKS, '') : props.text;
    return DOMPurify.sanitize(marked.parse(text, { async: false }));
  });
  return <div class="readme" innerHTML={html()} />;
}
