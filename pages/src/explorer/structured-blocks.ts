/** Opening and closing tags of the README's machine-readable blocks; attributes are bounded, so each match costs O(1). */
const BLOCK_TAG = /<(\/?)(use_cases|payload_requirements)(?:\s[^<>]{0,200})?>/gi;

type Tag = { closing: boolean; name: string; start: number; end: number };

/**
 * The README without its `<use_cases>` and `<payload_requirements>` blocks (spec "README conventions"),
 * each from its opening tag to the first closing tag of the same name. Linear in the text's length: the tags
 * are found in one pass, and a block that never closes is given up once per name.
 */
export function withoutStructuredBlocks(text: string): string {
  const tags: Tag[] = [...text.matchAll(BLOCK_TAG)].map((m) => ({
    closing: m[1] === '/',
    name: m[2]!.toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
  }));
  const unclosed = new Set<string>();
  const removed: [number, number][] = [];
  let open: { tag: Tag; at: number } | null = null;
  for (let i = 0; i <= tags.length; i++) {
    const tag = tags[i];
    if (!tag) {
      if (!open) break;
      // The open block never closes: leave it, and look again from just after its opening tag.
      unclosed.add(open.tag.name);
      i = open.at;
      open = null;
      continue;
    }
    if (!open && !tag.closing && !unclosed.has(tag.name)) open = { tag, at: i };
    else if (open && tag.closing && tag.name === open.tag.name) {
      removed.push([open.tag.start, tag.end]);
      open = null;
    }
  }
  let out = '';
  let from = 0;
  for (const [start, end] of removed) {
    out += text.slice(from, start);
    from = end;
  }
  return out + text.slice(from);
}
