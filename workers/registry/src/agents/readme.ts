import type { AgentFunction, DomainTag, ReadmeAnalysis } from '../../../../schemas/registry.ts';

/**
 * What a README declares for search (spec "README conventions"): tag badges `![tag:<name>](…)`, domain
 * badges `![tag:domain/<d>](…/<label>-<hex>)`, and the webhook-caller tags `<description>`, `<use_cases>`
 * and `<payload_requirements>`. The README itself is stored untouched; this only reads it.
 */

const BADGE = /!\[tag:([^\]\n]{1,200})\]\(([^)\s]{0,2000})\)/gi;
const HEX_COLOR = /^[0-9a-f]{6}$/i;

function collapse(text: string): string {
  return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The inner text of each `<tag>…</tag>` in `text` (case-insensitive, attributes allowed). */
function elements(text: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`, 'gi');
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
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
  for (const match of readme.matchAll(BADGE)) {
    const name = (match[1] ?? '').trim();
    const url = match[2] ?? '';
    if (!name.toLowerCase().startsWith('domain/')) {
      if (name) tags.push(name);
      continue;
    }
    const domain = name.slice('domain/'.length).trim();
    const parsed = badgeLabelAndColor(url);
    if (!domain) {
      invalid.push({ badge: match[0], reason: 'domain badge names no domain' });
    } else if (!parsed) {
      invalid.push({ badge: match[0], reason: 'badge URL does not end in <label>-<hexcolor>' });
    } else if (!HEX_COLOR.test(parsed.color)) {
      invalid.push({ badge: match[0], reason: `"${parsed.color}" is not a six-digit hex colour; the badge would render broken` });
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
      const outside = payload.replace(/<requirement(?:\s[^>]*)?>[\s\S]*?<\/requirement\s*>/gi, '');
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
  const withoutPayloads = readme.replace(/<payload_requirements(?:\s[^>]*)?>[\s\S]*?<\/payload_requirements\s*>/gi, '');
  const description = collapse(elements(withoutPayloads, 'description')[0] ?? '');
  const useCases = elements(readme, 'use_cases').flatMap((block) => elements(block, 'use_case').map(collapse)).filter((text) => text.length > 0);
  return { tags, domain_tags: domainTags, invalid_domain_badges: invalid, description, use_cases: useCases, functions: parseFunctions(readme, description) };
}
