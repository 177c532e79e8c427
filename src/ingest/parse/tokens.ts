/**
 * A token count without a tokenizer. BPE tokenizers (GPT, BERT families) average about 4
 * characters per token on English and code, and about one token per character on Chinese,
 * Japanese and Korean; mixing both rules is within ~20% on real text, which is all the split
 * thresholds need. It never loads a model, so it is free to call on every section.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * The estimated number of tokens in `text`: CJK characters count one each, everything else a
 * quarter per UTF-16 unit, rounded up.
 *
 * @example
 * estimateTokens('Hello, world!'); // 4
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const _ of text.matchAll(CJK)) cjk++;
  return Math.ceil(cjk + (text.length - cjk) / 4);
}
