import type { LexicalDoc } from '../lexical/lexical-index.js';
import type { PostingRecord } from '../store/store.js';

/**
 * The lexical document of a stored posting: headings become one path, as the index weighs them.
 *
 * @example
 * index.replace(postingDoc(await store.posting(key)));
 */
export const postingDoc = (p: PostingRecord): LexicalDoc => ({
  key: p.key,
  body: p.body,
  ...(p.title !== undefined ? { title: p.title } : {}),
  ...(p.headings?.length ? { headings: p.headings.join(' › ') } : {}),
});
