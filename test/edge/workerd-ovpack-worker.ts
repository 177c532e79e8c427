// Bundled by test/edge/workerd-ovpack.test.ts and run in workerd by Miniflare: the OVPack scenario
// (ovpack-scenario.ts) between two memory stores, within one request (a Longship's I/O belongs to
// the request that opened it: docs/guide/mcp.md, "workerd").
import { LongshipError } from '../../src/index.js';
import usearch from '../../wasm/dist/usearch.wasm';
import { runOvpackScenario } from './ovpack-scenario.js';

export default {
  async fetch(): Promise<Response> {
    try {
      return Response.json(await runOvpackScenario({ stores: ['memory', 'memory'], usearch }));
    } catch (error) {
      const code = error instanceof LongshipError ? error.code : 'not a LongshipError';
      return Response.json({ error: `${code}: ${error}`, stack: (error as Error).stack }, { status: 500 });
    }
  },
};
