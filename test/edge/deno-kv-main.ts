// Run by test/edge/deno-kv.test.ts with `deno run --sloppy-imports --unstable-kv` and read and
// write permission on the database's folder only (docs/guide/deno-kv.md). Modes:
//   index <file>   opens Deno.openKv(file), a Longship on it with a hash embedder: writes two notes
//                  (one long enough to be cut into parts) and finds one
//   find <file>    opens the same file in a new process and finds again, writing nothing
// Prints one JSON line.
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import type { DenoKv } from '../../src/store/deno-kv/kv-handle.js';
import { openDenoKvStore } from '../../src/store/deno-kv/open-deno-kv-store.js';

declare const Deno: {
  args: string[];
  exit(code: number): never;
  version: { deno: string };
  openKv(path: string): Promise<DenoKv & { close(): void }>;
};

const [mode, file] = Deno.args;
const words = functionEmbedder({
  id: 'test/letters',
  dimensions: 8,
  embed: async (texts) => texts.map((t) => new Float32Array(8).map((_, i) => t.charCodeAt(i * 3) || 0)),
});
const kv = await Deno.openKv(file!);
const longship = await openLongship({
  store: await openDenoKvStore(kv, { prefix: 'notes' }),
  embedder: words,
});
if (mode === 'index') {
  await longship.write('viking://resources/notes/river.md', 'The river floods every spring.', {
    parents: true,
  });
  await longship.write('viking://resources/notes/desert.md', 'The desert is dry all year. '.repeat(5000));
}
const { resources } = await longship.find('river floods');
const desert = await longship.read('viking://resources/notes/desert.md');
const verify = await longship.store.verify();
console.log(
  JSON.stringify({
    runtime: `deno ${Deno.version.deno}`,
    persistent: longship.persistent,
    resources: resources.map(({ uri, score }) => ({ uri, score })),
    desertLength: desert.length,
    verify,
  }),
);
await longship.close();
kv.close();
Deno.exit(0);
