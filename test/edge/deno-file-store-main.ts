// Run by test/edge/deno-file-store.test.ts with `deno run --sloppy-imports` and only
// --allow-read/--allow-write on the store's folder (docs/guide/file-store.md). Modes:
//   write <dir>   opens the store Node wrote, checks it, commits more, snapshots, closes
//   hold <dir>    opens it, says "open", holds it until stdin ends
//   index <dir>   openLongship({ store: path }) with a hash embedder: writes two notes and finds one
//   find <dir>    opens the same path and finds again, writing nothing
// Prints one JSON line.
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { openFileStore } from '../../src/store/file/file-open.js';

declare const Deno: {
  args: string[];
  exit(code: number): never;
  version: { deno: string };
  stdin: { readable: ReadableStream<Uint8Array> };
};

const [mode, dir] = Deno.args;
const embedder = { id: 'test-embedder@1', dimensions: 4 };
if (mode === 'index' || mode === 'find') {
  const words = functionEmbedder({
    id: 'test/letters',
    dimensions: 8,
    embed: async (texts) => texts.map((t) => new Float32Array(8).map((_, i) => t.charCodeAt(i * 3) || 0)),
  });
  const longship = await openLongship({ store: dir!, embedder: words });
  if (mode === 'index') {
    await longship.write('viking://resources/notes/river.md', 'The river floods every spring.', {
      parents: true,
    });
    await longship.write('viking://resources/notes/desert.md', 'The desert is dry all year.');
  }
  const { resources } = await longship.find('river floods');
  console.log(
    JSON.stringify({
      persistent: longship.persistent,
      resources: resources.map(({ uri, score }) => ({ uri, score })),
    }),
  );
  await longship.close();
  Deno.exit(0);
}
const store = await openFileStore(dir!, { embedder });
if (mode === 'hold') {
  console.log(JSON.stringify({ open: true }));
  // Held until the parent closes stdin.
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done);
  await store.close();
} else {
  const before = await store.stats();
  const meta = await store.meta();
  const k = await store.allocateKeys(2);
  const now = 1_700_000_000_000;
  await store.commit({
    putNodes: [
      {
        uri: 'viking://resources/deno.md',
        parent: 'viking://resources',
        name: 'deno.md',
        kind: 'file',
        contextType: 'resource',
        key: k,
        l0: 'Written by Deno',
        summaryKind: 'extractive',
        meta: { at: new Date(now) },
        createdAt: now,
        updatedAt: now,
        useCount: 0,
      },
    ],
    putPostings: [{ key: k, body: 'Written by Deno' }],
    putVectors: [{ key: k + 1, nodeKey: k, chunk: 0, vector: new Float32Array([1, 2, 3, 4]) }],
  });
  const bytes = new Uint8Array(5 * 1024 * 1024).map((_, i) => i & 0xff);
  await store.putSnapshot({ name: 'deno', seq: (await store.meta()).seq, bytes });
  const snapshot = await store.snapshot('deno');
  const verify = await store.verify();
  await store.close();
  const reopened = await openFileStore(dir!);
  const after = (await reopened.stats()).nodes;
  await reopened.close();
  console.log(
    JSON.stringify({
      runtime: `deno ${Deno.version.deno}`,
      before,
      seqBefore: meta.seq,
      after,
      snapshotOk: snapshot?.bytes.length === bytes.length && snapshot.bytes[4097] === 4097 % 256,
      verify,
    }),
  );
}
