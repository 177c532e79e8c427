/**
 * The words that set a text apart, TF-IDF style within the text itself: its paragraphs play the
 * corpus, so a word on every paragraph ("use", the product name) weighs less than one that
 * dominates a few. No corpus statistics are needed, so a summary never depends on what else is stored.
 */

/** Common English function words and filler; short enough to read, long enough to matter. */
const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
each either else etc even every few for from further get gets got had hadn't has hasn't have haven't having
he her here hers herself him himself his how however i if in into is isn't it it's its itself just let let's
like may me might more most must mustn't my myself need needs no nor not now of off on once one only or other
ought our ours ourselves out over own per same shall she should shouldn't since so some such than that that's
the their theirs them themselves then there there's these they this those through thus to too under until up
upon us use used uses using very via was wasn't we were weren't what when where whether which while who whom
whose why will with within without won't would wouldn't yes yet you your yours yourself yourselves also e.g
i.e new see two three first second make makes made way ways many much well back still part`.split(/\s+/),
);

/** Keywords of common programming languages: in source code they are everywhere and say nothing. */
export const codeKeywords: ReadonlySet<string> = new Set(
  `abstract async await bool boolean break byte case catch char class const continue def default defer del
delete double elif enum export extends false final finally float for from func function go impl implements
import in instanceof int interface lambda let long match mod module mut namespace new nil none null number
object override package pass private protected pub public raise readonly return self static str string struct
super switch this throw throws trait true try type typeof undefined unsafe var void where while with yield`.split(
    /\s+/,
  ),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

function wordsOf(text: string, ignore: ReadonlySet<string> | undefined): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter(
    (w) =>
      w.length >= 3 && w.length <= 40 && !STOPWORDS.has(w) && !ignore?.has(w) && !/^[\d.,'’_-]+$/.test(w),
  );
}

/**
 * Up to `limit` salient terms of `text`, best first, leaving out stopwords and `ignore`; words in
 * `emphasis` (the title and headings) count double. Ties go to the earlier word, so the result is deterministic.
 *
 * @example
 * salientTerms('Vectors live in USearch.\n\nUSearch runs in WebAssembly.', ['Index'], 3);
 * // ['usearch', 'vectors', 'live']
 */
export function salientTerms(
  text: string,
  emphasis: readonly string[] = [],
  limit = 12,
  ignore?: ReadonlySet<string>,
): string[] {
  const paragraphs = text.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '');
  const frequency = new Map<string, number>();
  const spread = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  for (const paragraph of paragraphs) {
    const words = wordsOf(paragraph, ignore);
    for (const word of words) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
      if (!firstSeen.has(word)) firstSeen.set(word, firstSeen.size);
    }
    for (const word of new Set(words)) spread.set(word, (spread.get(word) ?? 0) + 1);
  }
  const emphasised = new Set(wordsOf(emphasis.join(' '), ignore));
  const n = paragraphs.length;
  // Scored once each, not at every comparison of the sort.
  const scored = [...frequency].map(([word, count]) => ({
    word,
    score: count * Math.log(1 + n / spread.get(word)!) * (emphasised.has(word) ? 2 : 1),
    first: firstSeen.get(word)!,
  }));
  return scored
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map((s) => s.word);
}
