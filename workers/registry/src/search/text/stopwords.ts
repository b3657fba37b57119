/**
 * English words that carry no topic. They are dropped from a query (unless nothing else is left), so
 * "an agent that can tell me the weather in Paris" searches for "weather paris" (plus "tell").
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could do does for from get give has have help how i in into is it its me my ' +
    'need of on or please show some that the their them then there these this to use want what when where which ' +
    'who why will with would you your agent agents find looking'
  ).split(' '),
);
