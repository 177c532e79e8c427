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

  it('still refuses wrong calls there: the types are not any', async () => {
    await cp(example, fixture, { recursive: true });
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
      JSON.stringify({ extends: './tsconfig.json', include: ['wrong.ts'] }),
    );
    const { code, output } = await tsc(root, 'node-types/tsconfig.wrong.json');
    // Every @ts-expect-error found its error (an unused one is error TS2578), and nothing else failed.
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('keeps the platform’s own types where the project has the DOM lib', async () => {
    await cp(example, fixture, { recursive: true });
    await writeFile(
      join(fixture, 'dom.ts'),
      `import type { CreateLongshipOptions, IdbStoreOptions, WasmSource } from 'longship';
const factory: IdbStoreOptions['indexedDB'] = indexedDB;
const back: IDBFactory = factory;
const worker: CreateLongshipOptions['worker'] = new SharedWorker('worker.js');
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
