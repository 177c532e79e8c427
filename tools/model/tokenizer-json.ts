// Builds a Hugging Face `tokenizer.json` (Unigram) from USE-lite's SentencePiece vocabulary, so that
// transformers.js reproduces the ids of the original JavaScript tokenizer (@energetic-ai/embeddings,
// itself a port of tfjs-models' USE tokenizer). That tokenizer:
// - NFKC-normalises, prepends "▁" and turns every space into "▁" (no whitespace collapsing, and a
//   text that starts with a space gets "▁▁"), then runs Viterbi over the whole string;
// - never matches the 6 reserved pieces (ids 0–5) and maps characters no piece starts with to id 0,
//   fusing runs of them into one id 0.
// A Metaspace pre-tokenizer would not prepend "▁" to a text that already starts with a space, so the
// normalizer does the prefixing and replacing instead.
// One quirk is reproduced with a pre-tokenizer: the original Viterbi treats a best score of exactly 0
// as "no path yet". Pieces whose score is 0 or null ("▁:", "▁:)", "▁:(", "▁:-)") give that score when
// they open the text, so a text starting with ":" always begins "▁", ":". Splitting the leading "▁"
// off such a text does the same; elsewhere these pieces are used as usual.

/** vocab.json rows: [piece, log-probability]. A few scores are null in the published file. */
export type SentencePieceVocab = readonly (readonly [string, number | null])[];

const reservedCount = 6;
const unknownId = 0;

export function tokenizerJson(vocab: SentencePieceVocab): object {
  const lastIdOf = new Map(vocab.map(([piece], id) => [piece, id]));
  const pieces = vocab.map(([piece, score], id): [string, number] => {
    // Unreachable pieces get a name the normalised text cannot contain (it has no spaces), so
    // Unigram never matches them but ids stay aligned with the embedding table:
    // - the reserved control pieces, which the original tokenizer leaves out of its trie;
    // - the first copies of duplicated pieces ("”5" appears three times): the trie keeps the last.
    // Id 0 keeps its name: a literal "�" is id 0 either way.
    const unreachable = (id > unknownId && id < reservedCount) || lastIdOf.get(piece) !== id;
    // null + x is x in the original Viterbi, so a null score acts as 0.
    return [unreachable ? `${piece} (unused id ${id})` : piece, score ?? 0];
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'NFKC' },
        { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
        { type: 'Prepend', prepend: '▁' },
      ],
    },
    pre_tokenizer: { type: 'Split', pattern: { Regex: '\\A▁(?=:)' }, behavior: 'Isolated', invert: false },
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: unknownId, vocab: pieces, byte_fallback: false },
  };
}

/** `tokenizer_config.json`: no special tokens are added; padding uses id 0, which the mask hides. */
export function tokenizerConfig(maxTokens: number): object {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    model_max_length: maxTokens,
    padding_side: 'right',
    truncation_side: 'right',
    unk_token: '�',
    pad_token: '�',
    clean_up_tokenization_spaces: false,
  };
}
