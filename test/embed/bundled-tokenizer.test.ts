// model/use-lite/tokenizer.json, read by transformers.js, against the original USE tokenizer.
//
// What still differs, and why: exact ties. When the same pieces can be ordered two ways with the same
// total score ("zz"+"z" or "z"+"zz", "99"+"9" or "9"+"99"), the original Viterbi keeps the path whose
// last piece starts latest, transformers.js's lattice the one whose last piece starts earliest. No
// score in tokenizer.json can change that: both orders sum the same scores. Ties need runs of one
// repeated character or digit (markdown table rules, "999", "zz z"); ordinary prose has none.
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { openReference, type UseLiteReference } from './use-lite-reference.js';
import { tokenizerCorpus, varietyTexts } from './use-lite-texts.js';

type Tokenizer = Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the bundled USE-lite tokenizer', () => {
  let reference: UseLiteReference;
  let tokenizer: Tokenizer;
  const ids = (text: string) => tokenizer.encode(text, { add_special_tokens: false });

  beforeAll(async () => {
    reference = await openReference();
    tokenizer = await AutoTokenizer.from_pretrained(
      fileURLToPath(new URL('../../model/use-lite/', import.meta.url)),
    );
  });

  it('gives the original ids on at least 98% of 4,000 lines of docs and synthetic text', () => {
    const lines = tokenizerCorpus(root, 4000);
    expect(lines.length).toBe(4000);
    const agreeing = lines.filter((line) => {
      const expected = reference.tokenize(line);
      const actual = ids(line);
      return actual.length === expected.length && actual.every((id, i) => id === expected[i]);
    });
    const share = agreeing.length / lines.length;
    console.log(`tokenizer agreement: ${(share * 100).toFixed(2)}% of ${lines.length} lines`);
    expect(share).toBeGreaterThanOrEqual(0.98);
  });

  it.each([
    ['leading spaces become one ▁ each', '  two leading spaces'],
    ['runs of spaces are kept', 'a  b   c'],
    ['reserved pieces in the text are plain text', '</s> <s> extra_token_id_1'],
    ['a leading colon opens with ▁ then :', ':) and : and :-)'],
    ['unknown characters fuse into one id 0', 'tabs\t\tnewlines\n\n🎉🎉'],
    ['NFKC applies', 'ﬁ ① Ｆｕｌｌ'],
    ['nothing is nothing', ''],
  ])('%s', (_, text) => {
    expect(ids(text)).toEqual(reference.tokenize(text));
  });

  it('agrees on all but one of the variety texts (a tie among "item1, item11, …")', () => {
    const differing = varietyTexts.filter((text) => ids(text).join() !== reference.tokenize(text).join());
    expect(differing.length).toBeLessThanOrEqual(1);
  });

  it('pads with id 0 under a zero mask, and truncates to 128 tokens', () => {
    const { input_ids, attention_mask } = tokenizer(['hello', 'word '.repeat(300)], {
      padding: true,
      truncation: true,
    });
    const hello = reference.tokenize('hello');
    expect(input_ids.dims).toEqual([2, 128]);
    expect(Array.from(input_ids.data as BigInt64Array).slice(0, hello.length + 1)).toEqual([
      ...hello.map(BigInt),
      0n,
    ]);
    expect(Array.from(attention_mask.data as BigInt64Array).slice(0, hello.length + 1)).toEqual([
      ...hello.map(() => 1n),
      0n,
    ]);
    expect(Array.from(input_ids.data as BigInt64Array).slice(128)).toEqual(
      reference.tokenize('word '.repeat(300)).slice(0, 128).map(BigInt),
    );
  });
});
