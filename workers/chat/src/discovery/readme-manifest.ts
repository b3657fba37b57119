/**
 * What an agent's README says about how to use it, read from the conventions of the spec: `<description>`,
 * `<use_cases>`/`<use_case>`, `<payload_requirements>` … `<parameter>`/`<description>`, and tag badges
 * `![tag:<name>](…)`; plain Markdown falls back to its first paragraph and a "Use cases" list.
 */
interface ReadmeFacts {
  description: string;
  use_cases: string[];
  accepts: { parameter: string; description: string }[];
  tags: string[];
}

function inner(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'gi'))].map((match) => match[1]!.trim());
}

function clean(text: string): string {
  return text.replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\s+/g, ' ').trim();
}

function firstParagraph(readme: string): string {
  const body = readme.replace(/<[a-z_]+>[\s\S]*?<\/[a-z_]+>/gi, '');
  const paragraph = body
    .split(/\n\s*\n/)
    .map(clean)
    .find((block) => block && !block.startsWith('#') && !/^[-*]\s/.test(block));
  return paragraph ?? '';
}

function markdownUseCases(readme: string): string[] {
  const section = /^#{1,6}\s*use cases?\s*$([\s\S]*?)(?=^#{1,6}\s|\s*$(?![\s\S]))/im.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/^\s*(?:[-*]|\d+\.)\s+(.+)$/gm)].map((match) => clean(match[1]!));
}

export function readmeFacts(readme: string): ReadmeFacts {
  const tags = [...readme.matchAll(/!\[tag:([^\]]+)\]\([^)]*\)/g)].map((match) => match[1]!.trim());
  const description = clean(inner(readme, 'description')[0] ?? '') || firstParagraph(readme);
  const taggedUseCases = inner(readme, 'use_case').map(clean);
  const accepts = inner(readme, 'requirement').map((requirement) => ({
    parameter: clean(inner(requirement, 'parameter')[0] ?? ''),
    description: clean(inner(requirement, 'description')[0] ?? ''),
  }));
  return {
    description: description.slice(0, 600),
    use_cases: (taggedUseCases.length ? taggedUseCases : markdownUseCases(readme)).slice(0, 5),
    accepts: accepts.filter((a) => a.parameter),
    tags: [...new Set(tags)],
  };
}
