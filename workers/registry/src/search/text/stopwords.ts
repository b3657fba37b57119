/**
 * Words that carry no topic: English function words and the filler of a request ("I need something that can…",
 * "is it ok to…", "can you tell me whether…"). They are dropped from a query (unless nothing else is left), so
 * "an agent that can tell me the weather in Paris" searches for "weather paris".
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could do does for from get give has have help how i in into is it its me my ' +
    'need of on or please show some that the their them then there these this to use want what when where which ' +
    'who why will with would you your agent agents find looking ' +
    // Function words and pronouns.
    'am was were been being if so than too very our ours we us he she him his her they those any all also just ' +
    'about out up off again only own such both each other should shall may might must ' +
    // Request filler: asking, not the task.
    'something someone somebody anything anyone tell know let lets ok okay fine like able whether really thing things ' +
    'im ive id dont cant wanna gonna hey hi hello thanks thank ' +
    // Hedges and vague words around the task; the tails of contractions ("what's", "don't", "I'll").
    'wondering wonder somewhere anywhere somehow maybe perhaps possibly actually basically literally currently ' +
    'kinda sorta stuff whatever yeah pls plz asap else ever even already yet much lot lots bit etc ' +
    's t ll re ve'
  ).split(' '),
);
