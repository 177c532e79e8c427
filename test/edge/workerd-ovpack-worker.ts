// Bundled by test/edge/workerd-ovpack.test.ts and run in workerd by Miniflare. Each request opens
// its own Longship in memory (a Longship's I/O belongs to the request that opened it:
// docs/guide/mcp.md, "workerd"):
//   GET /           the OVPack scenario (ovpack-scenario.ts) between two memory stores
//   GET /download   the scenario's folder exported with its vectors, as the response's body
//   POST /upload    the request's body imported with vectors: 'require'; answers what was written
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/index.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { hashEmbedder } from '../context/hash-embedder.js';
import { contentBelow, FOLDER, runOvpackScenario, writeFolder } from './ovpack-scenario.js';

const open = () => openLongship({ user: 'alice', embedder: hashEmbedder, store: 'memory', usearch });

async function answer(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === '/download') {
    const longship = await open();
    await writeFolder(longship);
    // The stream is read after this handler returns, by workerd, as the client reads the body; so
    // this Longship is left open (it holds memory only).
    return new Response(await longship.export(FOLDER, { includeVectors: true }), {
      headers: { 'content-type': 'application/zip' },
    });
  }
  if (pathname === '/upload') {
    const longship = await open();
    try {
      const result = await longship.import(request.body!, 'viking://resources', { vectors: 'require' });
      return Response.json({ result, content: await contentBelow(longship, FOLDER) });
    } finally {
      await longship.close();
    }
  }
  return Response.json(await runOvpackScenario({ stores: ['memory', 'memory'], usearch }));
}

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return await answer(request);
    } catch (error) {
      const code = error instanceof LongshipError ? error.code : 'not a LongshipError';
      return Response.json({ code, message: String(error) }, { status: 500 });
    }
  },
};
