// nDCG@10 and Recall@100 of the lexical index alone on BEIR SciFact (the train queries kept in
// ../shared/eval). Run: npx tsx bench/quality/scifact-bm25.ts. Prints; writes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { LexicalIndexOptions } from '../../src/lexical/lexical-index.js';

const dir = fileURLToPath(new URL('../../../shared/eval/scifact/', import.meta.url));
if (!existsSync(`${dir}corpus.jsonl`)) {
  console.log(`SciFact is not at ${dir}; nothing to measure.`);
  process.exit(0);
}

interface Doc {
  _id: string;
  title: string;
  text: string;
}
interface Query {
  _id: string;
  text: string;
}
const jsonl = <T>(file: string): T[] =>
  readFileSync(dir + file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

const corpus = jsonl<Doc>('corpus.jsonl');
const queries = jsonl<Query>('queries.jsonl');
const qrels = new Map<string, Map<string, number>>();
for (const line of readFileSync(`${dir}qrels/train.tsv`, 'utf8').split('\n').slice(1)) {
  const [query, doc, score] = line.split('\t');
  if (!query || !doc) continue;
  const relevant = qrels.get(query) ?? new Map<string, number>();
  relevant.set(doc, Number(score));
  qrels.set(query, relevant);
}

function measure(label: string, options: LexicalIndexOptions): void {
  const index = createLexicalIndex(options);
  const started = performance.now();
  corpus.forEach((doc, key) => {
    index.add({ key, title: doc.title, body: doc.text });
  });
  const indexedMs = performance.now() - started;
  let ndcg = 0;
  let recall = 0;
  let counted = 0;
  const searchStarted = performance.now();
  for (const query of queries) {
    const relevant = qrels.get(query._id);
    if (!relevant) continue;
    const hits = index.search(query.text, { limit: 100 });
    const gains = hits.map((hit) => relevant.get(corpus[hit.key]!._id) ?? 0);
    const ideal = [...relevant.values()].sort((a, b) => b - a);
    ndcg += dcg(gains.slice(0, 10)) / dcg(ideal.slice(0, 10));
    recall += gains.filter((gain) => gain > 0).length / relevant.size;
    counted++;
  }
  const searchMs = (performance.now() - searchStarted) / counted;
  console.log(
    `${label}: nDCG@10 ${(ndcg / counted).toFixed(4)}, Recall@100 ${(recall / counted).toFixed(4)} ` +
      `(${counted} train queries, ${corpus.length} docs; indexed in ${indexedMs.toFixed(0)} ms, ` +
      `${searchMs.toFixed(2)} ms a query)`,
  );
}

function dcg(gains: readonly number[]): number {
  return gains.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
}

measure('title weight 2 (default)', {});
measure('title weight 1 (flat)', { fieldWeights: { title: 1 } });
