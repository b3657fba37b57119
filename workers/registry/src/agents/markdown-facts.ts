/**
 * Plain-Markdown fallbacks for READMEs without the spec's tags: the first paragraph (the description) and
 * the items of a "Use cases" section. Line by line, so linear in the README's length.
 */

const HEADING = /^#{1,6}(?:\s|$)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(\S.*)$/;

/** The first block of non-blank lines that is neither a heading nor a list. */
export function firstParagraph(text: string): string {
  let block: string[] = [];
  for (const line of [...text.split('\n'), '']) {
    if (line.trim()) {
      block.push(line.trim());
      continue;
    }
    const paragraph = block.join(' ');
    block = [];
    if (paragraph && !HEADING.test(paragraph) && !LIST_ITEM.test(paragraph)) return paragraph;
  }
  return '';
}

/** The list items under a `## Use cases` heading (any level), up to the next heading. */
export function markdownUseCases(text: string): string[] {
  const items: string[] = [];
  let inSection = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (HEADING.test(trimmed)) {
      if (inSection) break;
      inSection = /^use cases?$/i.test(trimmed.replace(/^#+/, '').trim());
      continue;
    }
    const item = inSection ? LIST_ITEM.exec(line) : null;
    if (item) items.push(item[1]!);
  }
  return items;
}
