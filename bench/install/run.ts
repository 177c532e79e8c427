// npm run bench:install [-- --json bench/results/install.json] [--only longship,@orama/orama] [--no-prepare]
// What depending on Longship costs a browser app's install, beside Orama, PGlite and
// transformers.js alone: each is installed into its own fresh project (npm install
// --prefer-offline, onnxruntime-node's CUDA download skipped as the consumer tests skip it), and
// the project's node_modules is measured: bytes of its files, files, packages, and the largest
// packages. Longship is installed from the tarball `npm pack` makes of this repository (which runs
// `prepare`: the build and the model). The packed size is the package's own tarball.
import { execFile } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { writeReport } from '../lib/write-report.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

interface Subject {
  name: string;
  /** What `npm install` is given: a registry spec, or the path of a tarball. */
  spec: string;
}

interface Footprint {
  name: string;
  version: string;
  /** The package's own tarball. */
  packed_bytes: number;
  unpacked_bytes: number;
  /** Everything the install put in node_modules. */
  node_modules_bytes: number;
  files: number;
  packages: number;
  install_s: number;
  /** The largest packages in node_modules, by bytes. */
  largest: { name: string; bytes: number }[];
}

/** Bytes and files below `dir` (symlinks counted as themselves, never followed). */
async function sizeOf(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await sizeOf(path);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += (await lstat(path)).size;
      files++;
    }
  }
  return { bytes, files };
}

/** Every package folder in a node_modules tree (scoped and nested ones included). */
async function packagesIn(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(nodeModules, entry.name);
    const folders = entry.name.startsWith('@')
      ? (await readdir(path, { withFileTypes: true }))
          .filter((e) => e.isDirectory())
          .map((e) => join(path, e.name))
      : [path];
    for (const folder of folders) {
      found.push(folder);
      const nested = join(folder, 'node_modules');
      if (
        await lstat(nested).then(
          (s) => s.isDirectory(),
          () => false,
        )
      )
        found.push(...(await packagesIn(nested)));
    }
  }
  return found;
}

/** The package's own tarball: `npm pack --dry-run` of a registry spec, from npm's cache where it can. */
async function packedSize(subject: Subject): Promise<{ packed: number; unpacked: number; version: string }> {
  const { stdout } = await run(
    'npm',
    ['pack', subject.spec, '--dry-run', '--json', '--prefer-offline', '--ignore-scripts', '--loglevel=error'],
    { cwd: tmpdir(), maxBuffer: 64 << 20 },
  );
  const [info] = JSON.parse(stdout) as { size: number; unpackedSize: number; version: string }[];
  return { packed: info!.size, unpacked: info!.unpackedSize, version: info!.version };
}

async function measure(subject: Subject): Promise<Footprint> {
  const project = await mkdtemp(join(tmpdir(), 'longship-install-'));
  try {
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    await writeFile(join(project, '.npmrc'), 'onnxruntime-node-install=skip\n');
    const started = performance.now();
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', subject.spec],
      {
        cwd: project,
        maxBuffer: 64 << 20,
        env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
      },
    );
    const installSeconds = (performance.now() - started) / 1000;
    const nodeModules = join(project, 'node_modules');
    const total = await sizeOf(nodeModules);
    const packages = await packagesIn(nodeModules);
    const sized = await Promise.all(
      packages.map(async (folder) => ({
        name: folder.slice(nodeModules.length + 1),
        bytes: (await sizeOf(folder)).bytes,
      })),
    );
    // A package's size includes the packages nested below it; the list counts each once.
    const own = sized.map((p) => ({
      ...p,
      bytes:
        p.bytes -
        sized.filter((q) => q.name.startsWith(`${p.name}/node_modules/`)).reduce((s, q) => s + q.bytes, 0),
    }));
    const tarball = await packedSize(subject);
    return {
      name: subject.name,
      version: tarball.version,
      packed_bytes: tarball.packed,
      unpacked_bytes: tarball.unpacked,
      node_modules_bytes: total.bytes,
      files: total.files,
      packages: packages.length,
      install_s: installSeconds,
      largest: own.sort((a, b) => b.bytes - a.bytes).slice(0, 6),
    };
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}

async function ownVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repo, 'node_modules', name, 'package.json'), 'utf8'));
  return manifest.version as string;
}

/** `prepare`: build dist/ and the model first, as a publish does; without it, pack them as they are. */
async function packLongship(into: string, prepare: boolean): Promise<string> {
  const scripts = prepare ? [] : ['--ignore-scripts'];
  const { stdout } = await run('npm', ['pack', '--pack-destination', into, '--silent', ...scripts], {
    cwd: repo,
    maxBuffer: 64 << 20,
  });
  return join(into, stdout.trim().split('\n').at(-1)!);
}

const mb = (bytes: number) => bytes / 1e6;

function markdown(rows: Footprint[], machine: ReturnType<typeof measureMachine>): string {
  const table = markdownTable(
    [
      'package',
      'version',
      'packed MB',
      'unpacked MB',
      'node_modules MB',
      'files',
      'packages',
      'largest in node_modules (MB)',
    ],
    rows.map((row) => [
      row.name,
      row.version,
      cell(mb(row.packed_bytes), 2),
      cell(mb(row.unpacked_bytes), 2),
      cell(mb(row.node_modules_bytes), 1),
      String(row.files),
      String(row.packages),
      row.largest.map((p) => `${p.name} ${cell(mb(p.bytes), 1)}`).join(', '),
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  const longship = rows.find((row) => row.name === 'longship');
  const transformers = rows.find((row) => row.name === '@huggingface/transformers');
  const share =
    longship && transformers
      ? `\nLongship over transformers.js alone: ${cell(mb(longship.node_modules_bytes - transformers.node_modules_bytes), 1)} MB of node_modules.\n`
      : '';
  return `# Install footprint (\`npm run bench:install\`)

Each package installed alone into a fresh project (\`npm install --prefer-offline\`,
onnxruntime-node's CUDA download skipped), Node ${machine.node}. MB are 10^6 bytes of file contents.

${table}
${share}`;
}

const { values: args } = parseArgs({
  options: {
    json: { type: 'string', default: 'bench/results/install.json' },
    only: { type: 'string' },
    'no-prepare': { type: 'boolean', default: false },
  },
});
const jsonPath = args.json;
const scratch = await mkdtemp(join(tmpdir(), 'longship-pack-'));
try {
  // Each spec is made only when its package is measured: packing Longship builds it first.
  const subjects: { name: string; spec: () => Promise<string> }[] = [
    { name: 'longship', spec: () => packLongship(scratch, !args['no-prepare']) },
    { name: '@orama/orama', spec: async () => `@orama/orama@${await ownVersion('@orama/orama')}` },
    { name: '@electric-sql/pglite', spec: async () => '@electric-sql/pglite' },
    {
      name: '@huggingface/transformers',
      spec: async () => `@huggingface/transformers@${await ownVersion('@huggingface/transformers')}`,
    },
  ];
  const names = subjects.map((subject) => subject.name);
  const only = args.only?.split(',') ?? names;
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} is not one of ${names.join(', ')}`);
  const rows: Footprint[] = [];
  for (const { name, spec } of subjects) {
    if (!only.includes(name)) continue;
    const subject: Subject = { name, spec: await spec() };
    const row = await measure(subject);
    console.log(
      `${row.name}: node_modules ${cell(mb(row.node_modules_bytes), 1)} MB, packed ${cell(mb(row.packed_bytes), 2)} MB`,
    );
    rows.push(row);
  }
  const machine = measureMachine();
  writeReport(jsonPath, { date: new Date().toISOString(), machine, rows }, markdown(rows, machine));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
