// Run by test/edge/deno-ovpack.test.ts with `deno run --sloppy-imports` and read and write
// permission on one folder only: the OVPack scenario (ovpack-scenario.ts) between two file stores
// in it, then the source's folder exported to a file there and imported from the file's stream
// into a third store. Prints one JSON line.
import { openLongship } from '../../src/engine.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { contentBelow, FOLDER, runOvpackScenario } from './ovpack-scenario.js';

declare const Deno: {
  args: string[];
  version: { deno: string };
  create(path: string): Promise<{ writable: WritableStream<Uint8Array> }>;
  open(path: string): Promise<{ readable: ReadableStream<Uint8Array> }>;
};

const [folder] = Deno.args;
const result = await runOvpackScenario({ stores: [`${folder}/source`, `${folder}/target`] });

const open = (name: string) =>
  openLongship({ user: 'alice', embedder: hashEmbedder, store: `${folder}/${name}` });
const source = await open('source');
const third = await open('third');
const path = `${folder}/harbour.ovpack`;
// pipeTo closes the file when the pack ends.
await (await source.export(FOLDER, { includeVectors: true })).pipeTo((await Deno.create(path)).writable);
const fromFile = {
  result: await third.import((await Deno.open(path)).readable, 'viking://resources', { vectors: 'require' }),
  source: await contentBelow(source, FOLDER),
  target: await contentBelow(third, FOLDER),
};
await Promise.all([source.close(), third.close()]);
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, result, fromFile }));
