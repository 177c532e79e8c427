// `longship/lexical`: the BM25 index on its own (docs/internals/store.md), without the engine.

export { createLexicalIndex, loadLexicalIndex } from '../lexical/bm25-index.js';
export type {
  CorpusStatistics,
  LexicalDoc,
  LexicalField,
  LexicalHit,
  LexicalIndex,
  LexicalIndexOptions,
  LexicalLoadOptions,
  LexicalSearchOptions,
  UnreadPostingsSource,
} from '../lexical/lexical-index.js';
