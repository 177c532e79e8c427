// The example extension (examples/extension/) as a user builds it: the package packed and installed
// from its tarball with esbuild beside it, the example bundled against it by its own build.mjs.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Builds the unpacked extension under `scratch`; returns its folder. */
export async function buildExtension(repo: string, scratch: string): Promise<string> {
  const project = await mkdtemp(join(scratch, 'project-'));
  const packed = await run('npm', ['pack', '--pack-destination', project, '--silent'], {
    cwd: repo,
    maxBuffer: 64 << 20,
  });
  const tarball = join(project, packed.stdout.trim().split('\n').at(-1)!);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'bench-extension', private: true }));
  // onnxruntime-node's postinstall downloads CUDA libraries: not what an extension needs.
  await writeFile(join(project, '.npmrc'), 'onnxruntime-node-install=skip\n');
  const esbuild = JSON.parse(await readFile(join(repo, 'node_modules/esbuild/package.json'), 'utf8')).version;
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
      `esbuild@${esbuild}`,
    ],
    { cwd: project, maxBuffer: 64 << 20, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } },
  );
  const source = join(project, 'extension');
  await cp(join(repo, 'examples/extension'), source, {
    recursive: true,
    filter: (path) => !/[/\\](dist|node_modules)$/.test(path),
  });
  const out = join(project, 'extension-build');
  await run('node', ['build.mjs', '--out', out], { cwd: source });
  return out;
}
