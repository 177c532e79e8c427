// Consumer test 6: a strict TypeScript project with no DOM lib (examples/node-types/, a Node
// server's tsconfig) type-checks against the installed package's declarations, and those
// declarations still constrain: calls that are wrong fail to type-check.
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const example = fileURLToPath(new URL('../../examples/node-types/', import.meta.url));

/** Runs the project's own tsc; its output (empty when the project type-checks) and exit code. */
async function tsc(root: string, project: string): Promise<{ code: number; output: string }> {
  const bin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(process.execPath, [bin, '-p', project], { cwd: root, timeout: 120_000 }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

describe('types without the DOM lib, from the installed package', () => {
  const root = inject('consumerRoot');
  const fixture = join(root, 'node-types');

  it('type-checks the example project, whose tsconfig has no DOM lib and checks every .d.ts', async () => {
    await cp(example, fixture, { recursive: true });
    const { compilerOptions } = JSON.parse(await readFile(join(fixture, 'tsconfig.json'), 'utf8'));
    expect(compilerOptions).toMatchObject({
      lib: ['ES2023'],
      types: ['node'],
      strict: true,
      skipLibCheck: false,
    });
    const { code, output } = await tsc(root, 'node-types');
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('type-checks every subpath there, and still refuses wrong calls: the types are not any', async () => {
    await cp(example, fixture, { recursive: true });
    await writeFile(
      join(fixture, 'subpaths.ts'),
      `import { type RemoteLongship, connectLongship, openLongshipInWorker, transfer } from 'longship/client';
import { type LexicalHit, createLexicalIndex, loadLexicalIndex } from 'longship/lexical';
import { type StoreHarness, storeContract } from 'longship/testing';
import { type VikingUri, contextTypeOf, join, parseUri, roots } from 'longship/uri';
import { type SearchHit, createVectorIndex, distance, loadUsearch } from 'longship/vector';
import { type LongshipHost, createLongshipHost, exposeLongship } from 'longship/worker';
import { openFileStore } from 'longship';

const connect = (port: Parameters<typeof connectLongship>[0]): Promise<RemoteLongship> => connectLongship(port);
const create: typeof openLongshipInWorker = openLongshipInWorker;
const moved = transfer({ bytes: new Uint8Array(4) }, []);
const lexical = createLexicalIndex();
const hits: LexicalHit[] = lexical.search('rivers', { limit: 5 });
const reloaded = loadLexicalIndex(new Uint8Array(0));
const harness = (): StoreHarness => ({ open: (options) => openFileStore('store', options) });
storeContract('FileStore', harness);
const uri: VikingUri = join(parseUri('viking://resources'), 'docs');
const type: 'resource' | 'memory' | 'skill' | undefined = contextTypeOf(uri);
const index = createVectorIndex(await loadUsearch(), { dimensions: 4 });
const near: SearchHit[] = index.search(new Float32Array(4), 1);
const host: LongshipHost = createLongshipHost();
// @ts-expect-error: a URI is parsed, not any string
const raw: VikingUri = 'viking://resources';
// @ts-expect-error: a lexical index is searched with a string
lexical.search(7);
// @ts-expect-error: the contract takes a harness factory
storeContract('x', openFileStore);
// @ts-expect-error: a metric is cos, ip or l2sq
distance('cosine', new Float32Array(1), new Float32Array(1));
// @ts-expect-error: exposeLongship takes options, not a port
exposeLongship(42);
console.log(connect, create, moved, hits, reloaded, type, near, host, raw, roots.resource);
`,
    );
    await writeFile(
      join(fixture, 'wrong.ts'),
      `import { openLongship, openIdbStore } from 'longship';
// @ts-expect-error: usearch is a module, bytes or a URL
await openLongship({ usearch: 42 });
// @ts-expect-error: not an option
await openLongship({ nope: true });
const longship = await openLongship();
// @ts-expect-error: a query is a string
await longship.find(7);
// @ts-expect-error: an IndexedDB factory opens databases
await openIdbStore('x', { indexedDB: {} });
`,
    );
    await writeFile(
      join(fixture, 'tsconfig.wrong.json'),
      JSON.stringify({ extends: './tsconfig.json', include: ['wrong.ts', 'subpaths.ts'] }),
    );
    const { code, output } = await tsc(root, 'node-types/tsconfig.wrong.json');
    // Every @ts-expect-error found its error (an unused one is error TS2578), and nothing else failed.
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  // The AI SDK's own declarations name DOM types (HeadersInit, MediaStream) and json-schema's,
  // so a project that uses it has the DOM lib and skips checking libraries; longship/ai is typed there.
  it('type-checks longship/ai with the AI SDK, and refuses wrong calls', async () => {
    await cp(example, fixture, { recursive: true });
    await writeFile(
      join(fixture, 'ai.ts'),
      `import { type LongshipToolSet, longshipTools } from 'longship/ai';
import { openLongship } from 'longship';
import { type ToolSet, generateText } from 'ai';

const longship = await openLongship();
const tools: Pick<LongshipToolSet, 'find'> = longshipTools(longship, { tools: ['find'] });
const set: ToolSet = longshipTools(longship);
const run = (model: Parameters<typeof generateText>[0]['model']) => generateText({ model, tools: set, prompt: 'x' });
// @ts-expect-error: a tool longship/ai does not have
longshipTools(longship, { tools: ['delete_all'] });
// @ts-expect-error: maxChars is a number
longshipTools(longship, { maxChars: '4000' });
console.log(tools, run);
`,
    );
    await writeFile(
      join(fixture, 'tsconfig.ai.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { lib: ['ES2023', 'DOM'], skipLibCheck: true },
        include: ['ai.ts'],
      }),
    );
    const { code, output } = await tsc(root, 'node-types/tsconfig.ai.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('keeps the platform’s own types where the project has the DOM lib', async () => {
    await cp(example, fixture, { recursive: true });
    await writeFile(
      join(fixture, 'dom.ts'),
      `import type { OpenLongshipInWorkerOptions } from 'longship';
import type { WasmSource } from 'longship/extend';
import type { IdbStoreOptions } from 'longship/store';
const factory: IdbStoreOptions['indexedDB'] = indexedDB;
const back: IDBFactory = factory;
const worker: OpenLongshipInWorkerOptions['worker'] = new SharedWorker('worker.js');
const module: WasmSource = new WebAssembly.Module(new Uint8Array());
// @ts-expect-error: with the DOM lib, indexedDB is an IDBFactory, not any object
const wrong: IdbStoreOptions['indexedDB'] = new Worker('worker.js');
console.log(back, worker, module, wrong);
`,
    );
    await writeFile(
      join(fixture, 'tsconfig.dom.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { lib: ['ES2023', 'DOM'] },
        include: ['dom.ts'],
      }),
    );
    const { code, output } = await tsc(root, 'node-types/tsconfig.dom.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });
});
