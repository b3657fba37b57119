import { agentVector } from './concepts/concept-vectors.ts';
import { STOPWORDS } from './text/stopwords.ts';
import { normalizeText } from './text/tokenize.ts';

/**
 * An agent's text quality: a factor in [FLOOR, 1] computed from its own text when it is written (registration,
 * update) and multiplied into the SQL score (ranking.ts), so ordering, `relevancy asc` and `cutoff` stay exact.
 * Two stuffing measures (the smaller decides), times substance, each bounded:
 * - breadth: the participation ratio of the agent's concept vector (1 / Σ w⁴ over its unit vector), the number
 *   of domains its weight is spread over. On the development corpus (agents-a/b.ts, 152 agents) honest agents
 *   have a median near 4 and at most 9.7 (an IPO calendar that names many markets); its four stuffed agents
 *   9.6–15.3. A list of unrelated domains earns little: 1 up to BREADTH_FREE, falling linearly to FLOOR at twice that.
 * - repetition: content words per distinct content word over all the agent's text. On the same corpus honest agents
 *   are at 2.0–2.9 (a README restates its description); a phrase said forty times is near forty. Repeated terms
 *   earn nothing: 1 up to REPEAT_FREE, FLOOR from REPEAT_FLOOR on.
 * - substance: an agent that says nothing beyond a few words (no description, no README) keeps at least
 *   1 − SUBSTANCE_SHARE; a few dozen distinct words are enough for the whole factor.
 */
const FLOOR = 0.5;
const BREADTH_FREE = 8;
const REPEAT_FREE = 4;
const REPEAT_FLOOR = 12;
const SUBSTANCE_SHARE = 0.05;
const SUBSTANCE_WORDS = 30;
/** Text read of a README: its start says what the agent does, and bounds the work per write. */
const READ_CHARS = 4000;

export interface QualityText {
  name: string;
  description: string;
  tags: readonly string[];
  useCases: readonly string[];
  readme: string;
}

function contentWords(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word));
}

function conceptBreadth(text: QualityText): number {
  const vector = agentVector({
    name: text.name,
    description: text.description,
    tags: text.tags.join(' '),
    use_cases: text.useCases.join(' '),
    // Payload field names are identifiers, not domains.
    functions: '',
    readme: text.readme.slice(0, READ_CHARS),
  });
  let fourth = 0;
  for (const weight of vector.values()) fourth += weight ** 4;
  return fourth > 0 ? 1 / fourth : 0;
}

function falling(value: number, free: number, floorAt: number): number {
  if (value <= free) return 1;
  return Math.max(FLOOR, 1 - ((1 - FLOOR) * (value - free)) / (floorAt - free));
}

/** The content words of all the agent's text, and of its description and README (tokenized once: seeding a million agents calls this). */
function wordsOf(text: QualityText): { all: string[]; prose: string[] } {
  const prose = contentWords(`${text.description} ${text.readme.slice(0, READ_CHARS)}`);
  return { all: [...contentWords([text.name, ...text.tags, ...text.useCases].join(' ')), ...prose], prose };
}

export function textQuality(text: QualityText): number {
  const { all, prose } = wordsOf(text);
  const substance = 1 - SUBSTANCE_SHARE * Math.max(0, 1 - new Set(prose).size / SUBSTANCE_WORDS);
  const repeated = all.length ? all.length / new Set(all).size : 1;
  const quality = Math.min(falling(conceptBreadth(text), BREADTH_FREE, 2 * BREADTH_FREE), falling(repeated, REPEAT_FREE, REPEAT_FLOOR));
  // Stored rounded: the factor is a ranking weight, not a measurement.
  return Math.round(quality * substance * 1000) / 1000;
}
