import type { AgentFunction, DomainTag, ReadmeAnalysis } from '../../../../schemas/registry.ts';
import { firstParagraph, markdownUseCases } from './markdown-facts.ts';
import { badges, elements, withoutBadges, withoutElements } from './markup-scan.ts';

/**
 * What a README declares for search (spec "README conventions"): tag badges `![tag:<name>](…)`, domain
 * badges `![tag:domain/<d>](…/<label>-<hex>)`, and the webhook-caller tags `<description>`, `<use_cases>`
 * and `<payload_requirements>`; plain Markdown falls back to its first paragraph and a "Use cases" list.
 * The README itself is stored untouched; this only reads it, once, at registration, in linear time
 * (markup-scan.ts): the chat Worker and search read the stored results, never the README again.
 */

const HEX_COLOR = /^[0-9a-f]{6}$/i;

/** Tags and badges out, whitespace collapsed. `<[^<>]*>` cannot backtrack past the next `<`, so this stays linear. */
function collapse(text: string): string {
  return text
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `…/badge/<label>-<hex>` (shields.io style): the label and colour of a domain badge's last path segment. */
function badgeLabelAndColor(url: string): { label: string; color: string } | null {
  const path = url.split(/[?#]/)[0] ?? '';
  const segment = (path.split('/').pop() ?? '').replace(/\.(svg|png)$/i, '');
  const dash = segment.lastIndexOf('-');
  if (dash <= 0) return null;
  let label = segment.slice(0, dash);
  try {
    label = decodeURIComponent(label);
  } catch {
    // Keep the raw text when the label is not valid percent-encoding.
  }
  return { label: label.replace(/--/g, '-').replace(/_/g, ' ').trim(), color: segment.slice(dash + 1) };
}

function parseBadges(readme: string) {
  const tags: string[] = [];
  const domainTags: DomainTag[] = [];
  const invalid: ReadmeAnalysis['invalid_domain_badges'] = [];
  for (const badge of badges(readme)) {
    const name = badge.name.trim();
    const url = badge.url;
    if (!name.toLowerCase().startsWith('domain/')) {
      if (name) tags.push(name);
      continue;
    }
    const domain = name.slice('domain/'.length).trim();
    const parsed = badgeLabelAndColor(url);
    if (!domain) {
      invalid.push({ badge: badge.text, reason: 'domain badge names no domain' });
    } else if (!parsed) {
      invalid.push({ badge: badge.text, reason: 'badge URL does not end in <label>-<hexcolor>' });
    } else if (!HEX_COLOR.test(parsed.color)) {
      invalid.push({ badge: badge.text, reason: `"${parsed.color}" is not a six-digit hex colour; the badge would render broken` });
    } else {
      domainTags.push({ domain, label: parsed.label || domain, color: parsed.color.toLowerCase() });
      tags.push(domain);
    }
  }
  const seen = new Set<string>();
  const uniqueTags = tags.filter((tag) => {
    const key = tag.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { tags: uniqueTags, domainTags, invalid };
}

function parseFunctions(readme: string, agentDescription: string): AgentFunction[] {
  const functions: AgentFunction[] = [];
  for (const block of elements(readme, 'payload_requirements')) {
    for (const payload of elements(block, 'payload')) {
      const requirements = elements(payload, 'requirement');
      const outside = withoutElements(payload, 'requirement');
      const parameters = requirements
        .map((requirement) => ({
          name: collapse(elements(requirement, 'parameter')[0] ?? ''),
          description: collapse(elements(requirement, 'description')[0] ?? ''),
          required: !/^\s*(false|no|optional)\s*$/i.test(elements(requirement, 'required')[0] ?? 'true'),
        }))
        .filter((parameter) => parameter.name.length > 0);
      const index = functions.length + 1;
      functions.push({
        name: collapse(elements(outside, 'name')[0] ?? '') || (index === 1 ? 'payload' : `payload_${index}`),
        description: collapse(elements(outside, 'description')[0] ?? '') || agentDescription,
        parameters,
      });
    }
  }
  return functions;
}

export function analyzeReadme(readme: string): ReadmeAnalysis {
  const { tags, domainTags, invalid } = parseBadges(readme);
  const withoutPayloads = withoutElements(readme, 'payload_requirements');
  const description =
    collapse(elements(withoutPayloads, 'description')[0] ?? '') ||
    collapse(firstParagraph(withoutBadges(withoutTaggedBlocks(withoutPayloads)))).slice(0, 600);
  const tagged = elements(readme, 'use_cases')
    .flatMap((block) => elements(block, 'use_case').map(collapse))
    .filter((text) => text.length > 0);
  const useCases = tagged.length
    ? tagged
    : markdownUseCases(readme)
        .map(collapse)
        .filter((text) => text.length > 0);
  return {
    tags,
    domain_tags: domainTags,
    invalid_domain_badges: invalid,
    description,
    use_cases: useCases,
    functions: parseFunctions(readme, description),
  };
}

/** The README without the spec's tagged blocks, whose text is not prose for a first paragraph. */
function withoutTaggedBlocks(text: string): string {
  return ['description', 'use_cases'].reduce(withoutElements, text);
}
