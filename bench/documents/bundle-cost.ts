// What each document reader adds to the worker script (issue 35): the worker bundle built as
// `npm run build` builds it (tools/worker/bundle.ts's options), with esbuild's metafile, each output
// chunk attributed to the readers that load it, raw and gzipped; and the base of the worker, the
// entry with every chunk it imports statically (what every worker loads at start), beside the same
// built from an earlier commit's tree.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Metafile } from 'esbuild';

/** The readers convert.ts loads with import(), by the module each is loaded from. */
export const readerModules = {
  pdf: 'src/ingest/convert/pdf.ts',
  docx: 'src/ingest/convert/docx.ts',
  pptx: 'src/ingest/convert/pptx.ts',
  xlsx: 'src/ingest/convert/xlsx.ts',
} as const;
export type Reader = keyof typeof readerModules;
const readers = Object.keys(readerModules) as Reader[];

/** Bytes of some output files: as written, and gzipped one file at a time (each is fetched alone). */
export interface Size {
  files: number;
  raw: number;
  gzip: number;
}

/** A group of output chunks, loaded by the same readers. */
export interface ChunkGroup {
  /** The readers that load these chunks; one for a reader's own. */
  readers: Reader[];
  size: Size;
  /** Raw bytes each package (or Longship's own src/) put into these chunks, largest first. */
  inputs: { input: string; raw: number }[];
}

export interface ReaderCost {
  reader: Reader;
  /** Every chunk beyond the base that the first file of this kind loads: its own and shared ones. */
  firstLoad: Size;
  /** The chunks only this reader loads. */
  own: Size;
}

export interface BaseChunk extends Size {
  /** Raw bytes of each input module in it, by package or src/ path. */
  inputs: Record<string, number>;
}

export interface BundleCost {
  readers: ReaderCost[];
  groups: ChunkGroup[];
  /** What the rest of the worker loads on demand (the model runtime, the tokenizer), for scale. */
  otherOnDemand: Size;
  base: BaseChunk;
}

/** An output chunk's path and what it imports, statically or with import(). */
type Outputs = Metafile['outputs'];

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).byteLength;

/** The module an input path names: `pkg` or `@scope/pkg` under node_modules, else the path itself. */
function inputName(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return path;
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  // pdf.js's two builds are told apart: the library and the worker's code run on this thread.
  return name === 'pdfjs-dist' ? `pdfjs-dist/${rest.at(-1)}` : name;
}

/** Every output reachable from `from` through imports of the given kinds, `from` included. */
function closure(outputs: Outputs, from: string, dynamic: boolean): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    for (const edge of outputs[queue.pop()!]!.imports) {
      const kinds = dynamic ? ['import-statement', 'dynamic-import'] : ['import-statement'];
      if (edge.external || !kinds.includes(edge.kind) || seen.has(edge.path)) continue;
      seen.add(edge.path);
      queue.push(edge.path);
    }
  }
  return seen;
}

/** The output whose entry point is `module` (relative to the build's working directory). */
function outputOf(outputs: Outputs, module: string): string {
  const found = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === module);
  if (!found) throw new Error(`no output chunk has ${module} as its entry point`);
  return found;
}

/** Builds the worker bundle in memory from the tree at `root` with `options`; the outputs and their bytes. */
async function buildWorker(
  root: string,
  options: BuildOptions,
): Promise<{ outputs: Outputs; bytes: Map<string, Uint8Array> }> {
  const result = await build({
    ...options,
    absWorkingDir: root,
    outdir: join(root, 'bench-bundle-out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const bytes = new Map(result.outputFiles.map((file) => [relative(root, file.path), file.contents]));
  return { outputs: result.metafile.outputs, bytes };
}

function sizeOf(files: Iterable<string>, bytes: ReadonlyMap<string, Uint8Array>): Size {
  const size: Size = { files: 0, raw: 0, gzip: 0 };
  for (const file of files) {
    const contents = bytes.get(file)!;
    size.files++;
    size.raw += contents.byteLength;
    size.gzip += gzip(contents);
  }
  return size;
}

function baseOf(outputs: Outputs, bytes: ReadonlyMap<string, Uint8Array>, entry: string): BaseChunk {
  const files = closure(outputs, entry, false);
  const inputs: Record<string, number> = {};
  for (const file of files) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[file]!.inputs)) {
      const name = inputName(input);
      inputs[name] = (inputs[name] ?? 0) + bytesInOutput;
    }
  }
  return { ...sizeOf(files, bytes), inputs };
}

/** The base chunk of the worker built from the tree at `root` with its own bundle options. */
export async function baseChunk(root: string, options: BuildOptions, entry: string): Promise<BaseChunk> {
  const { outputs, bytes } = await buildWorker(root, options);
  return baseOf(outputs, bytes, outputOf(outputs, relative(root, entry)));
}

/** The cost of each reader in the worker bundle built from `root` with `options`. */
export async function bundleCost(root: string, options: BuildOptions, entry: string): Promise<BundleCost> {
  const { outputs, bytes } = await buildWorker(root, options);
  const entryOutput = outputOf(outputs, relative(root, entry));
  const base = closure(outputs, entryOutput, false);
  const loads = new Map(
    readers.map((reader) => {
      const all = closure(outputs, outputOf(outputs, readerModules[reader]), true);
      return [reader, [...all].filter((file) => !base.has(file))] as const;
    }),
  );
  // Each chunk beyond the base, keyed by the readers that load it.
  const byReaders = new Map<string, { readers: Reader[]; files: string[] }>();
  for (const file of new Set([...loads.values()].flat())) {
    const by = readers.filter((reader) => loads.get(reader)!.includes(file));
    const key = by.join('+');
    const group = byReaders.get(key) ?? { readers: by, files: [] };
    group.files.push(file);
    byReaders.set(key, group);
  }
  const groups = [...byReaders.values()].map(({ readers: by, files }) => {
    const inputs = new Map<string, number>();
    for (const file of files) {
      for (const [input, { bytesInOutput }] of Object.entries(outputs[file]!.inputs)) {
        const name = inputName(input);
        inputs.set(name, (inputs.get(name) ?? 0) + bytesInOutput);
      }
    }
    return {
      readers: by,
      size: sizeOf(files, bytes),
      inputs: [...inputs].map(([input, raw]) => ({ input, raw })).sort((a, b) => b.raw - a.raw),
    };
  });
  groups.sort((a, b) => a.readers.length - b.readers.length || b.size.gzip - a.size.gzip);
  const attributed = new Set([...base, ...[...loads.values()].flat()]);
  return {
    readers: readers.map((reader) => ({
      reader,
      firstLoad: sizeOf(loads.get(reader)!, bytes),
      own: sizeOf(byReaders.get(reader)?.files ?? [], bytes),
    })),
    groups,
    otherOnDemand: sizeOf(
      Object.keys(outputs).filter((file) => file.endsWith('.js') && !attributed.has(file)),
      bytes,
    ),
    base: baseOf(outputs, bytes, entryOutput),
  };
}

/**
 * The base chunk at git revision `revision` of the repository at `root`: its tree unpacked into a
 * temporary folder beside this repository's node_modules (and this build's dist/vendor), built with
 * that tree's own tools/worker/bundle.ts. The packages are today's, so the difference is the code's.
 */
export async function baseChunkAt(root: string, revision: string): Promise<BaseChunk & { commit: string }> {
  const commit = execFileSync('git', ['rev-parse', '--short', `${revision}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const tree = mkdtempSync(join(tmpdir(), 'longship-bench-documents-'));
  try {
    const tar = join(tree, 'tree.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', tar, commit], { cwd: root });
    execFileSync('tar', ['-xf', tar, '-C', tree]);
    symlinkSync(realpathSync(join(root, 'node_modules')), join(tree, 'node_modules'));
    // A tree whose package.json maps `#transformers` to the build's own copy of transformers.js
    // needs that file, which git does not hold: today's, like the packages.
    const vendor = join(root, 'dist/vendor');
    if (existsSync(vendor)) cpSync(vendor, join(tree, 'dist/vendor'), { recursive: true });
    const bundle = (await import(pathToFileURL(join(tree, 'tools/worker/bundle.ts')).href)) as {
      workerBundleOptions: BuildOptions;
      workerEntry: string;
    };
    return { commit, ...(await baseChunk(tree, bundle.workerBundleOptions, bundle.workerEntry)) };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
