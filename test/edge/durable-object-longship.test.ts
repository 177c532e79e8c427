// A Longship per Durable Object under Miniflare (workerd): what it acknowledged is there after the
// object is evicted and Miniflare started again over the same storage, and the Longship it reopens
// from its snapshots and change log passes verify().

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./durable-object-longship-worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

let folder: string;
let script: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-do-'));
  script = await bundleWorker(worker);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function start(): Promise<Miniflare> {
  return new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: script },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
    durableObjects: { AGENT: { className: 'AgentObject', useSQLite: true } },
    durableObjectsPersist: folder,
  });
}

async function ask<T>(miniflare: Miniflare, path: string, body?: object): Promise<T> {
  const response = await miniflare.dispatchFetch(`http://agent/alice/${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

describe('a Longship in a Durable Object', () => {
  it('keeps what it acknowledged across eviction, and reopens from its snapshots and log', async () => {
    let miniflare = await start();
    try {
      await ask(miniflare, 'add', { name: 'glaciers.md', text: 'Glaciers carve fjords in cold valleys.' });
      // close() snapshots the indexes; the next request opens the Longship again from them.
      await ask(miniflare, 'close');
      await ask(miniflare, 'add', { name: 'reefs.md', text: 'Coral reefs grow in warm shallow seas.' });
      const before = await ask<{ seq: number; snapshots: number[] }>(miniflare, 'state');
      expect(before.snapshots.length).toBeGreaterThan(0);
      // The second document is in the log only, past every snapshot.
      expect(Math.max(...before.snapshots)).toBeLessThan(before.seq);
    } finally {
      // Eviction: the object's memory is gone without close(); its storage stays.
      await miniflare.dispose();
    }
    miniflare = await start();
    try {
      // Opened from the snapshots and the log: no table was scanned to rebuild an index.
      expect(await ask(miniflare, 'state')).toMatchObject({ scanned: [] });
      expect(await ask(miniflare, 'verify')).toEqual({ ok: true, problems: [] });
      const reefs = await ask<{ uris: string[] }>(miniflare, 'find?q=coral%20reefs');
      expect(reefs.uris[0]).toMatch(/reefs\.md$/);
      const glaciers = await ask<{ uris: string[] }>(miniflare, 'find?q=glaciers%20fjords');
      expect(glaciers.uris[0]).toMatch(/glaciers\.md$/);
    } finally {
      await miniflare.dispose();
    }
  });
});
