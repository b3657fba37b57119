/**
 * Linear-time readers of the few markup shapes READMEs use (`<tag>…</tag>`, `![tag:…](…)`). READMEs are
 * written by anyone, so no backtracking regex reads them: every scan here only moves forward, and each
 * character is looked at a bounded number of times whatever the input.
 */

/** ASCII lowercase, same length as the input (String#toLowerCase may change the length of some letters). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/**
 * "The first index at or after i where `stop` holds" for queries whose i never decreases: the answer is
 * remembered, so the whole sequence of queries scans the text once.
 */
function forwardFinder(text: string, stop: (code: number) => boolean): (i: number) => number {
  let from = -1;
  let at = -1;
  return (i) => {
    if (from >= 0 && i >= from && (at === -1 || i <= at)) return at;
    let j = i;
    while (j < text.length && !stop(text.charCodeAt(j))) j += 1;
    from = i;
    at = j < text.length ? j : -1;
    return at;
  };
}

/** Every index of `needle` in `haystack`, non-overlapping, in order. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

interface ElementMatch {
  start: number;
  end: number;
  inner: string;
}

/**
 * Each `<tag>…</tag>` (case-insensitive, attributes allowed, `</tag >` too), matched as the lazy regex
 * `<tag(\s[^>]*)?>([\s\S]*?)</tag\s*>` would: the first closing tag after each opening one, no overlaps.
 */
function elementMatches(text: string, tag: string): ElementMatch[] {
  const lower = asciiLower(text);
  const name = tag.toLowerCase();
  const nextGt = forwardFinder(text, (code) => code === 62);
  const openings: { start: number; contentStart: number }[] = [];
  for (const start of occurrences(lower, `<${name}`)) {
    const after = start + name.length + 1;
    const code = text.charCodeAt(after);
    if (code === 62) openings.push({ start, contentStart: after + 1 });
    else if (isSpace(code)) {
      const gt = nextGt(after);
      if (gt !== -1) openings.push({ start, contentStart: gt + 1 });
    }
  }
  const closings: { start: number; end: number }[] = [];
  for (const start of occurrences(lower, `</${name}`)) {
    let at = start + name.length + 2;
    while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
    if (text.charCodeAt(at) === 62) closings.push({ start, end: at + 1 });
  }
  const matches: ElementMatch[] = [];
  let closing = 0;
  let consumed = 0;
  for (const opening of openings) {
    if (opening.start < consumed) continue;
    while (closing < closings.length && closings[closing]!.start < opening.contentStart) closing += 1;
    const close = closings[closing];
    if (!close) break;
    matches.push({ start: opening.start, end: close.end, inner: text.slice(opening.contentStart, close.start) });
    consumed = close.end;
  }
  return matches;
}

/** The inner text of each `<tag>…</tag>`. */
export function elements(text: string, tag: string): string[] {
  return elementMatches(text, tag).map((match) => match.inner);
}

/** `text` without its `<tag>…</tag>` elements. */
export function withoutElements(text: string, tag: string): string {
  let kept = '';
  let from = 0;
  for (const match of elementMatches(text, tag)) {
    kept += text.slice(from, match.start);
    from = match.end;
  }
  return kept + text.slice(from);
}

export interface Badge {
  start: number;
  end: number;
  /** The whole `![tag:…](…)`. */
  text: string;
  name: string;
  url: string;
}

const BADGE_NAME_MAX = 200;
const BADGE_URL_MAX = 2000;

/** Each `![tag:<name>](<url>)`: a name of 1–200 characters without `]` or a newline, a URL of at most 2000 without `)` or spaces. */
export function badges(text: string): Badge[] {
  const lower = asciiLower(text);
  const nameEnd = forwardFinder(text, (code) => code === 93 || code === 10);
  const urlEnd = forwardFinder(text, (code) => code === 41 || isSpace(code));
  const found: Badge[] = [];
  let consumed = 0;
  for (const start of occurrences(lower, '![tag:')) {
    if (start < consumed) continue;
    const nameStart = start + 6;
    const close = nameEnd(nameStart);
    if (close === -1 || text.charCodeAt(close) !== 93 || close === nameStart || close - nameStart > BADGE_NAME_MAX) continue;
    if (text.charCodeAt(close + 1) !== 40) continue;
    const urlStart = close + 2;
    const end = urlEnd(urlStart);
    if (end === -1 || text.charCodeAt(end) !== 41 || end - urlStart > BADGE_URL_MAX) continue;
    found.push({
      start,
      end: end + 1,
      text: text.slice(start, end + 1),
      name: text.slice(nameStart, close),
      url: text.slice(urlStart, end),
    });
    consumed = end + 1;
  }
  return found;
}

/** `text` without its tag badges. */
export function withoutBadges(text: string): string {
  let kept = '';
  let from = 0;
  for (const badge of badges(text)) {
    kept += text.slice(from, badge.start);
    from = badge.end;
  }
  return kept + text.slice(from);
}
