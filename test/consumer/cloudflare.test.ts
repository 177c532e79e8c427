// The Cloudflare example (examples/cloudflare/) from the installed package, as it deploys: built by
// `wrangler deploy --dry-run --outdir` offline, its upload measured (under Cloudflare's 10 MiB for a
// compressed Worker), then that upload run under Miniflare: a Durable Object per agent, the model's
// files fetched from an R2 bucket rather than bundled (docs/guide/durable-objects.md, "Deploying").
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const example = fileURLToPath(new URL('../../examples/cloudflare/', import.meta.url));
const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

/** The model's files as the example's README uploads them: `use-lite/{name}` in the bucket. */
const modelFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];

/** Preloaded into wrangler: notes every connection it opens, so an offline build is seen to be one. */
const netLog = `
import { appendFileSync } from 'node:fs';
import net from 'node:net';
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const to = typeof args[0] === 'object' ? args[0] : { port: args[0], host: args[1] };
  if (!to.path) appendFileSync(process.env.NET_LOG, to.host + ':' + to.port + '\\n');
  return connect.apply(this, args);
};
`;

interface Upload {
  /** The outdir's modules (no source maps), by file name. */
  files: Map<string, Uint8Array>;
  connections: string;
}

/** What wrangler.toml declares that Miniflare is given by hand: the date and the bindings. */
async function settings() {
  const toml = await readFile(join(example, 'wrangler.toml'), 'utf8');
  const value = (key: string, section?: string) =>
    (section ? toml.split(section)[1] : toml)?.match(new RegExp(`^${key} = "([^"]+)"$`, 'm'))?.[1] ?? '';
  return {
    compatibilityDate: value('compatibility_date'),
    bucket: value('binding', '[[r2_buckets]]'),
    agents: value('name', '[[durable_objects.bindings]]'),
    className: value('class_name', '[[durable_objects.bindings]]'),
  };
}

describe('the Cloudflare example, deployed with its model in R2', () => {
  const root = inject('consumerRoot');
  const fixture = join(root, 'cloudflare-app');
  let upload: Upload;

  beforeAll(async () => {
    await cp(example, fixture, { recursive: true });
    const outdir = join(fixture, 'dist');
    const log = join(fixture, 'connections.log');
    await writeFile(join(fixture, 'net-log.mjs'), netLog);
    await writeFile(log, '');
    await run(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir], {
      cwd: fixture,
      maxBuffer: 64 << 20,
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        // The banner asks the registry whether wrangler is the latest (once a day, cached in the
        // temp folder): a deploy needs no such request.
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_LOG_PATH: join(fixture, 'logs'),
        NODE_OPTIONS: `--import ${join(fixture, 'net-log.mjs')}`,
        NET_LOG: log,
      },
    });
    const names = (await readdir(outdir)).filter((name) => /\.(js|wasm)$/.test(name));
    const files = new Map(
      await Promise.all(names.map(async (name) => [name, await readFile(join(outdir, name))] as const)),
    );
    upload = { files, connections: await readFile(log, 'utf8') };
  }, 300_000);

  it('builds offline to the script and the two WASM modules, under 10 MiB gzipped', () => {
    expect(upload.connections).toBe('');
    // The model is not in the upload: it comes from the bucket.
    expect([...upload.files.keys()].map((name) => name.replace(/^[0-9a-f]+-/, '')).sort()).toEqual([
      'ort-wasm-simd-threaded.wasm',
      'usearch.wasm',
      'worker.js',
    ]);
    let raw = 0;
    let gzipped = 0;
    const parts: string[] = [];
    for (const [name, bytes] of upload.files) {
      const size = gzipSync(bytes).length;
      raw += bytes.length;
      gzipped += size;
      parts.push(`${name}: ${kib(bytes.length)} KiB, ${kib(size)} KiB gzipped`);
    }
    console.log(`${parts.join('\n')}\ntotal: ${kib(raw)} KiB, ${kib(gzipped)} KiB gzipped`);
    expect(gzipped).toBeLessThan(10 * 1024 * 1024);
  });

  it('keeps each agent its own documents, found by meaning with the model from the bucket', async () => {
    const miniflare = await start();
    try {
      // R2Bucket's type is @cloudflare/workers-types', which this project does not load.
      const bucket = (await miniflare.getR2Bucket((await settings()).bucket)) as unknown as {
        put(key: string, value: Uint8Array): Promise<unknown>;
      };
      for (const name of modelFiles) {
        const bytes = await readFile(join(root, 'node_modules/longship/model/use-lite', name));
        await bucket.put(`use-lite/${name}`, new Uint8Array(bytes));
      }
      const { add, find } = agentsOf(miniflare);
      await add('alice', 'rivers.md', 'Rivers flood in spring when the snow melts.');
      await add('alice', 'bread.md', 'Knead the dough for ten minutes, then let it rise.');
      await add('bob', 'deserts.md', 'Deserts get less than 250 mm of rain a year.');
      // The query shares no word with bread.md: only its vectors find it, so the model loaded.
      expect((await find('alice', 'baking a loaf'))[0]).toBe('viking://resources/bread.md');
      expect(await find('alice', 'rain')).not.toContain('viking://resources/deserts.md');
      const bob = await find('bob', 'rain');
      expect(bob).toEqual(['viking://resources/deserts.md']);
    } finally {
      await miniflare.dispose();
    }
  }, 240_000);

  it('with the bucket empty, answers with the model file to upload', async () => {
    const miniflare = await start();
    try {
      const answer = await ask(miniflare, 'alice/documents', 500, { name: 'a.md', text: 'A.' });
      expect(answer).toEqual({
        error: 'use-lite/config.json is not in the MODELS bucket: upload the model (README.md)',
      });
    } finally {
      await miniflare.dispose();
    }
  }, 240_000);

  /** Miniflare running the upload: the script and WASM modules, the bindings of wrangler.toml. */
  async function start(): Promise<Miniflare> {
    const { compatibilityDate, bucket, agents, className } = await settings();
    const modules = [...upload.files].map(([name, contents]) => ({
      type: name.endsWith('.wasm') ? ('CompiledWasm' as const) : ('ESModule' as const),
      path: name,
      contents,
    }));
    // The entry first: Miniflare runs the first module.
    modules.sort((a, b) => Number(b.path === 'worker.js') - Number(a.path === 'worker.js'));
    return new Miniflare({
      compatibilityDate,
      modules,
      durableObjects: { [agents]: { className, useSQLite: true } },
      r2Buckets: [bucket],
    });
  }
});

async function ask<T>(miniflare: Miniflare, path: string, status: number, body?: object): Promise<T> {
  const response = await miniflare.dispatchFetch(`http://example/${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** The example's two endpoints, for an agent by name. */
function agentsOf(miniflare: Miniflare) {
  return {
    add: (agent: string, name: string, text: string) =>
      ask(miniflare, `${agent}/documents`, 200, { name, text }),
    find: async (agent: string, query: string) => {
      const hits = await ask<Array<{ uri: string }>>(
        miniflare,
        `${agent}/find?q=${encodeURIComponent(query)}`,
        200,
      );
      return hits.map((hit) => hit.uri);
    },
  };
}

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}
