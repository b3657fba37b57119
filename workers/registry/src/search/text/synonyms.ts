/**
 * Hand-kept synonym groups for the domains agents register in. A query word from a group also matches the
 * group's other words (the lexical stand-in for what embeddings give the semantic path). Words are in
 * tokenizer form (lowercase, no diacritics); the index stems them, so one form per word is enough.
 */
const GROUPS: readonly string[] = [
  'weather forecast meteorology climate',
  'stock stocks equity equities shares ticker',
  'crypto cryptocurrency bitcoin ethereum blockchain defi',
  'translate translation translator localization',
  'car cars vehicle vehicles automobile',
  'doctor physician medical clinic healthcare',
  'flight flights airline airfare plane',
  'hotel hotels accommodation lodging',
  'recipe recipes cooking cuisine meal',
  'news headlines journalism',
  'code coding programming software developer',
  'legal law lawyer attorney contract',
  'job jobs career careers employment hiring recruiting',
  'image images picture pictures photo photos',
  'music song songs playlist',
  'movie movies film films cinema',
  'summarize summary summarization tldr',
  'email emails mail inbox',
  'price prices pricing cost quote',
  'finance financial banking money',
  'taxi cab rideshare ride',
  'shopping ecommerce shop store retail',
  'map maps navigation directions route routing',
  'calendar schedule scheduling appointment meeting',
  'tax taxes taxation',
  'sql database query',
  'fitness workout exercise gym',
  'nutrition diet calories',
  'tutor tutoring teaching education learning',
  'insurance coverage policy',
  'realestate property housing rental apartment',
  'sentiment opinion mood',
  'speech voice audio transcription transcribe',
];

const INDEX: ReadonlyMap<string, readonly string[]> = (() => {
  const index = new Map<string, string[]>();
  for (const group of GROUPS) {
    const words = group.split(' ');
    for (const word of words) index.set(word, [...(index.get(word) ?? []), ...words.filter((other) => other !== word)]);
  }
  return index;
})();

export function synonymsOf(word: string): readonly string[] {
  return INDEX.get(word) ?? [];
}
