/** Command-line flags of `npm run bench:embed`. */
export interface EmbedBenchArgs {
  /** Where the JSON rows go; the markdown table goes next to it with the extension `.md`. */
  json: string | undefined;
  reps: number;
  sentences: number;
  runtimes: ('node' | 'chromium-worker')[];
  dtypes: ('q8' | 'fp32')[];
  batches: number[];
  nodeThreads: number[];
  browserThreads: number[];
  /** onnxruntime-web files in Chromium: the plain WASM build (default) or the `.asyncify` one. */
  wasmBuild: 'plain' | 'asyncify';
  corpus: string | undefined;
  /** A model folder relative to the repository root, to try a conversion other than the bundled one. */
  model: string | undefined;
}

const usage = `usage: npm run bench:embed -- [--json bench/results/embed.json] [--reps 3] [--sentences 512]
  [--runtimes node,chromium-worker] [--dtypes q8,fp32] [--batches 1,8,32]
  [--node-threads 1,2] [--browser-threads 1,2] [--wasm-build plain|asyncify] [--corpus corpus.jsonl] [--model model/use-lite]`;

export function parseArgs(argv: readonly string[]): EmbedBenchArgs {
  const args: EmbedBenchArgs = {
    json: undefined,
    reps: 3,
    sentences: 512,
    runtimes: ['node', 'chromium-worker'],
    dtypes: ['q8', 'fp32'],
    batches: [1, 8, 32],
    nodeThreads: [1, 2],
    browserThreads: [1, 2],
    wasmBuild: 'plain',
    corpus: undefined,
    model: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    if (flag === '--help' || flag === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const value = argv[++i];
    if (value === undefined) fail(`${flag} needs a value`);
    switch (flag) {
      case '--json':
        args.json = value;
        break;
      case '--reps':
        args.reps = positiveInteger(flag, value);
        break;
      case '--sentences':
        args.sentences = positiveInteger(flag, value);
        break;
      case '--runtimes':
        args.runtimes = oneOf(flag, list(value), ['node', 'chromium-worker'] as const);
        break;
      case '--dtypes':
        args.dtypes = oneOf(flag, list(value), ['q8', 'fp32'] as const);
        break;
      case '--batches':
        args.batches = list(value).map((v) => positiveInteger(flag, v));
        break;
      case '--node-threads':
        args.nodeThreads = list(value).map((v) => positiveInteger(flag, v));
        break;
      case '--browser-threads':
        args.browserThreads = list(value).map((v) => positiveInteger(flag, v));
        break;
      case '--wasm-build':
        args.wasmBuild = oneOf(flag, [value], ['plain', 'asyncify'] as const)[0]!;
        break;
      case '--corpus':
        args.corpus = value;
        break;
      case '--model':
        args.model = value.replace(/\/+$/, '');
        break;
      default:
        fail(`unknown flag ${flag}`);
    }
  }
  return args;
}

const list = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

function oneOf<T extends string>(flag: string, values: string[], allowed: readonly T[]): T[] {
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value))
      fail(`${flag}: ${value} is not one of ${allowed.join(', ')}`);
  }
  return values as T[];
}

function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) fail(`${flag} must be a positive integer, not ${value}`);
  return number;
}

function fail(message: string): never {
  console.error(`bench:embed: ${message}\n${usage}`);
  process.exit(2);
}
