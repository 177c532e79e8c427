// bench:glove on one of bench:rag's datasets: recall@5 (OpenViking's check_recall, as bench:rag scores
// it) of find()'s default, the bundled model alone and blended with GloVe at blends chosen beforehand
// (on SciFact's tuning half, so nothing here is fitted to this dataset), by bench:rag's halves.
import type { Embedder } from '../../src/embed/embedder.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { Half } from '../lib/halves.js';
import { joined, recallIn } from '../rag/check-recall.js';
import type { RagDataset } from '../rag/dataset.js';
import { halfByQuestion, ragHalves } from '../rag/halves.js';
import { hitReader } from '../rag/measure.js';
import { blendEmbedder, type GloveBlock, type QueryBlend } from './glove-blend.js';

export interface RagBlend extends QueryBlend {
  /** The row's name in the report. */
  name: string;
}

export interface RagRow {
  name: string;
  recall5: Record<Half | 'all', number>;
}

/** Recall@5 of each blend (w 1: the bundled model alone) over the dataset, ingested once. */
export async function ragRecalls(
  dataset: RagDataset,
  bundled: Embedder,
  blocks: readonly GloveBlock[],
  blends: readonly RagBlend[],
): Promise<RagRow[]> {
  const embedder = blendEmbedder(bundled, blocks);
  const longship = await openLongship({
    store: await openMemoryStore(),
    embedder,
    vectorIndex: { metric: 'ip' },
  });
  try {
    await longship.addResource(dataset.documents, { name: dataset.folder });
    await longship.waitProcessed();
    await bundled.embed(dataset.questions.map((q) => q.question));
    const halfOf = halfByQuestion(ragHalves(dataset).split);
    const read = hitReader(longship);
    const rows: RagRow[] = [];
    for (const blend of blends) {
      embedder.query = blend;
      const sums = { tuning: 0, reporting: 0, all: 0 };
      for (const question of dataset.questions) {
        const found = await longship.find(question.question, { targetUri: 'viking://resources', limit: 5 });
        const recall = recallIn(joined(await Promise.all(found.resources.map(read))), question.evidence);
        sums[halfOf.get(question)!] += recall;
        sums.all += recall;
      }
      const mean = (half: Half | 'all') => {
        const n =
          half === 'all' ? dataset.questions.length : [...halfOf.values()].filter((h) => h === half).length;
        return n ? Math.round((sums[half] / n) * 10000) / 10000 : 0;
      };
      rows.push({
        name: blend.name,
        recall5: { tuning: mean('tuning'), reporting: mean('reporting'), all: mean('all') },
      });
      console.log(`${dataset.name} ${blend.name}: recall@5`, rows.at(-1)!.recall5);
    }
    return rows;
  } finally {
    await longship.close();
  }
}
