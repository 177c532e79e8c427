// Each question's gold document, whole: as the dataset wrote it (the ceiling no retrieval can beat),
// and as Longship holds it (every leaf under the document's node, joined), so that a miss can be
// told apart as lost in ingestion rather than in retrieval.
import type { Longship } from '../../src/engine.js';
import { checkRecall, type Retrieved, retrieved } from './check-recall.js';
import type { RagDataset, RagQuestion } from './dataset.js';

export interface GoldDocument {
  uri: string;
  /** The document's Markdown as the dataset has it. */
  source: Retrieved;
  /** Its leaves' text (L2) in tree order, as find() can return it. */
  indexed: Retrieved;
}

/** The node a dataset's document was added as. */
export function documentUri(dataset: RagDataset, path: string): string {
  return `viking://resources/${dataset.folder}/${path}`.normalize('NFC');
}

/** Every document's gold texts, read once: questions share documents. */
export async function goldDocuments(
  longship: Longship,
  dataset: RagDataset,
): Promise<Map<string, GoldDocument>> {
  const gold = new Map<string, GoldDocument>();
  for (const document of dataset.documents) {
    const uri = documentUri(dataset, document.path);
    const leaves = (await longship.stat(uri)).kind === 'file' ? [uri] : await leavesUnder(longship, uri);
    const texts = await Promise.all(leaves.map((leaf) => longship.read(leaf)));
    gold.set(document.path, { uri, source: retrieved([document.content]), indexed: retrieved(texts) });
  }
  return gold;
}

async function leavesUnder(longship: Longship, uri: string): Promise<string[]> {
  const out: string[] = [];
  const walk = (nodes: Awaited<ReturnType<Longship['tree']>>) => {
    for (const node of nodes) {
      if (node.kind === 'file') out.push(node.uri);
      walk(node.children ?? []);
    }
  };
  walk(await longship.tree(uri, { depth: 100 }));
  return out;
}

/** Mean recall of each question's whole gold document, one side of it (questions without one score 0). */
export function ceiling(
  dataset: RagDataset,
  gold: Map<string, GoldDocument>,
  questions: readonly RagQuestion[],
  side: 'source' | 'indexed',
): number {
  let sum = 0;
  for (const question of questions) {
    const path = dataset.documentOf.get(question.sampleId);
    const document = path ? gold.get(path) : undefined;
    if (document) sum += checkRecall([document[side].combined], question.evidence);
  }
  return questions.length === 0 ? 0 : sum / questions.length;
}
