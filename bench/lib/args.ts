/** Command-line flags of `npm run bench:vector`. */
export interface BenchArgs {
  n: number;
  dims: number;
  queries: number;
  k: number;
  seed: number;
  /** Rank of each cluster's subspace in the generated data: higher is harder for every ANN index. */
  rank: number;
  /** Engines to run, in order; `NAME@N` runs one at N vectors (e.g. `longship@20000` beside a slow peer's). */
  engines: string[];
  /** Where the JSON rows go; the markdown table goes next to it with the extension `.md`. */
  json: string | undefined;
  /** Seconds an engine may take before its child process is killed (default for all engines). */
  timeout: number;
  /** Per-engine timeouts in seconds, from `--timeout 1800,mememo=900`. */
  timeouts: Record<string, number>;
  /** Per-engine vector counts below `n`, from `--engine-n mememo=20000` (for peers too slow for `n`). */
  engineN: Record<string, number>;
  /** Where the generated vectors and ground truth are cached between runs. */
  cacheDir: string | undefined;
  /** Print each child's own output. */
  verbose: boolean;
  /** Run nothing: re-render the markdown from the JSON at --json and the context the run left beside it. */
  renderOnly: boolean;
}

export const allEngines = [
  'brute-force',
  'longship',
  'longship-ordered',
  'longship-i8',
  'longship-f16',
  'usearch-native',
  'hnswlib-wasm',
  'voy',
  'orama',
  'mememo',
] as const;

const usage = `usage: npm run bench:vector -- [--n 100000] [--dims 512] [--queries 200] [--k 10] [--seed 42] [--rank 16]
  [--engines ${allEngines.join(',')}]
  [--json bench/results/index.json] [--timeout 1800[,engine=seconds...]] [--engine-n engine=count,...]
  [--cache-dir DIR] [--verbose] [--render-only]`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    n: 5000,
    dims: 128,
    queries: 200,
    k: 10,
    seed: 42,
    rank: 16,
    engines: [...allEngines],
    json: undefined,
    timeout: 1800,
    timeouts: {},
    engineN: {},
    cacheDir: undefined,
    verbose: false,
    renderOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    if (flag === '--help' || flag === '-h') {
      console.log(usage);
      process.exit(0);
    }
    if (flag === '--verbose' || flag === '--render-only') {
      if (flag === '--verbose') args.verbose = true;
      else args.renderOnly = true;
      continue;
    }
    const [name, inline] =
      flag.includes('=') && flag.startsWith('--') ? splitOnce(flag, '=') : [flag, undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${name} needs a value`);
    switch (name) {
      case '--n':
        args.n = positiveInteger(name, value);
        break;
      case '--dims':
        args.dims = positiveInteger(name, value);
        break;
      case '--queries':
        args.queries = positiveInteger(name, value);
        break;
      case '--k':
        args.k = positiveInteger(name, value);
        break;
      case '--seed':
        args.seed = positiveInteger(name, value);
        break;
      case '--rank':
        args.rank = positiveInteger(name, value);
        break;
      case '--engines': {
        const engines = value
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean);
        for (const spec of engines) {
          const [engine, at] = spec.split('@') as [string, string | undefined];
          if (at !== undefined) positiveInteger('--engines NAME@N', at);
          if (!(allEngines as readonly string[]).includes(engine)) {
            fail(`unknown engine ${engine}; known: ${allEngines.join(', ')}`);
          }
        }
        args.engines = engines;
        break;
      }
      case '--json':
        args.json = value;
        break;
      case '--timeout':
        for (const part of value.split(',')) {
          if (part.includes('=')) {
            const [engine, seconds] = splitOnce(part, '=');
            args.timeouts[engine] = positiveNumber(name, seconds);
          } else {
            args.timeout = positiveNumber(name, part);
          }
        }
        break;
      case '--engine-n':
        for (const part of value.split(',')) {
          const [engine, count] = splitOnce(part, '=');
          args.engineN[engine] = positiveInteger(name, count);
        }
        break;
      case '--cache-dir':
        args.cacheDir = value;
        break;
      default:
        fail(`unknown flag ${name}`);
    }
  }
  return args;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  if (at < 0) fail(`expected NAME${separator}VALUE, got ${text}`);
  return [text.slice(0, at), text.slice(at + 1)];
}

function positiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) fail(`${flag} must be a positive integer, not ${value}`);
  return number;
}

function positiveNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) fail(`${flag} must be a positive number, not ${value}`);
  return number;
}

function fail(message: string): never {
  console.error(`bench: ${message}\n${usage}`);
  process.exit(2);
}

/** A flag's value as a whole number ≥ 1, or an Error naming the flag, with the benchmark's usage. */
export function wholeFlag(flag: string, value: string, usage: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${flag} takes a whole number ≥ 1, not ${value}\n${usage}`);
  return n;
}
