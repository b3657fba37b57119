/**
 * How deeply the text nests Markdown's block containers: the most block-quote (`>`) and list-item (`-`, `*`,
 * `+`, `1.`, `1)`) markers opening one line. `marked` recurses once per level and overflows its stack (after
 * seconds of work) on a few thousand; this check reads each character once, so a hostile text costs a
 * linear scan before any parsing.
 */
export function blockNesting(text: string): number {
  let deepest = 0;
  let depth = 0;
  let atPrefix = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      depth = 0;
      atPrefix = true;
      continue;
    }
    if (!atPrefix || ch === ' ' || ch === '\t') continue;
    const marker = markerLength(text, i);
    if (marker === 0) {
      atPrefix = false;
      continue;
    }
    depth++;
    if (depth > deepest) deepest = depth;
    i += marker - 1;
  }
  return deepest;
}

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === undefined;
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/** Length of the container marker at `i` (0 when there is none): `>`, a bullet, or up to 9 digits and `.`/`)`, before a blank. */
function markerLength(text: string, i: number): number {
  const ch = text[i];
  if (ch === '>') return 1;
  if ((ch === '-' || ch === '*' || ch === '+') && isBlank(text[i + 1])) return 1;
  let end = i;
  while (end - i < 9 && isDigit(text[end])) end++;
  if (end > i && (text[end] === '.' || text[end] === ')') && isBlank(text[end + 1])) return end - i + 1;
  return 0;
}
