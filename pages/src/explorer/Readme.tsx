import type { Tokens } from 'marked';
import type { DomainTag } from '../../../schemas/registry.ts';
import { escapeHtml } from '../markdown/markdown-html.ts';
import { SafeMarkdown } from '../markdown/SafeMarkdown.tsx';
import { withoutStructuredBlocks } from './structured-blocks.ts';

const HEX_COLOR = /^[0-9a-f]{6}$/i;

/** Dark or light text, whichever reads on the badge colour. */
function textOn(hex: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#111' : '#fff';
}

const validDomain = (domains: readonly DomainTag[], domain: string) =>
  domains.find((tag) => tag.domain === domain && HEX_COLOR.test(tag.color));

/**
 * Tag badges (`![tag:<name>](…)`) render as tags, not as images from a badge service (the page may have no
 * network). Domain badges take the label the registry read from them (and its colour: see `colourBadges`);
 * a domain badge the registry found invalid (its colour is not six hex digits) shows as broken, as it would
 * on a badge service.
 */
function badgeHtml(token: Tokens.Image, domains: readonly DomainTag[]): string | null {
  if (!token.text.toLowerCase().startsWith('tag:')) return null;
  const name = token.text.slice(4).trim();
  if (!name.toLowerCase().startsWith('domain/')) return `<span class="ui-tag readme-badge">${escapeHtml(name)}</span>`;
  const domain = name.slice('domain/'.length).trim();
  const known = validDomain(domains, domain);
  if (!known) return `<span class="ui-tag readme-badge broken" title="invalid domain badge">${escapeHtml(domain)} ⚠</span>`;
  return `<span class="ui-tag readme-badge domain" data-domain="${escapeHtml(domain)}">${escapeHtml(known.label)}</span>`;
}

/**
 * Colours domain badges through the style API (the CSP allows no inline style attributes), from the
 * registry's record of the agent's domains, never from the README's text.
 */
function colourBadges(element: HTMLElement, domains: readonly DomainTag[]): void {
  for (const badge of element.querySelectorAll<HTMLElement>('.readme-badge.domain[data-domain]')) {
    const known = validDomain(domains, badge.dataset.domain ?? '');
    if (!known) continue;
    badge.style.background = `#${known.color}`;
    badge.style.borderColor = `#${known.color}`;
    badge.style.color = textOn(known.color);
  }
}

/**
 * An agent's README as Markdown, made safe (it is written by whoever registered the agent). With
 * `structuredShown`, the `<use_cases>` and `<payload_requirements>` blocks are left out: the caller shows them.
 */
export function Readme(props: { text: string; domainTags?: readonly DomainTag[]; structuredShown?: boolean }) {
  const domains = () => props.domainTags ?? [];
  const text = () => (props.structuredShown ? withoutStructuredBlocks(props.text) : props.text);
  return (
    <SafeMarkdown
      class="readme"
      text={text()}
      options={{ image: (token) => badgeHtml(token, domains()) }}
      decorate={(element) => colourBadges(element, domains())}
    />
  );
}
