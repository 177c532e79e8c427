// What every runtime's run of the OVPack scenario (ovpack-scenario.ts) must show, checked in Node.
import { expect } from 'vitest';
import { type OvpackResult, QUERIES, runOvpackScenario } from './ovpack-scenario.js';

/** Scores that came through a pack may differ from the source's by no more than this. */
const SCORE_TOLERANCE = 1e-6;

let node: Promise<OvpackResult> | undefined;

/** Checks `result` on its own, then against the same scenario run in Node (memory stores). */
export async function expectOvpackRoundTrip(result: OvpackResult): Promise<void> {
  expect(result.home).toBe('viking://user/alice');
  expect(result.memoryUri).toBe('viking://user/alice/memories/preferences/indent');
  expect(result.isReadableStream).toBe(true);
  expect(result.chunks).toBeGreaterThan(1);
  expect(result.imported).toEqual({
    uri: 'viking://resources/harbour',
    skipped: false,
    nodes: 6,
    vectors: 'restored',
  });
  expect(result.source.map((n) => n.path)).toEqual([
    '',
    '/crew.md',
    '/notes',
    '/notes/knots.md',
    '/notes/tides.md',
    '/notes/ünïcode – name.md',
  ]);
  expect(result.source.find((n) => n.path === '/notes/tides.md')?.l2).toBe(
    'High tide comes twice a day; spring tides at full moon.',
  );
  expect(result.target).toEqual(result.source);
  expect(result.found.map((f) => f.query)).toEqual(QUERIES);
  for (const { query, source, target } of result.found) {
    expect(source.length, query).toBeGreaterThan(0);
    expect(
      target.map((hit) => hit.path),
      query,
    ).toEqual(source.map((hit) => hit.path));
    source.forEach((hit, i) => {
      expect(Math.abs(target[i]!.score - hit.score), `${query}: ${hit.path}`).toBeLessThanOrEqual(
        SCORE_TOLERANCE,
      );
    });
  }
  expect(result.found.map((f) => f.source[0]?.path)).toEqual([
    '/notes/tides.md',
    '/notes/knots.md',
    '/crew.md',
  ]);
  expect(result.aliceMemories).toContain('viking://user/alice/memories/preferences/indent');
  expect(result.bobMemories.filter((uri) => uri.startsWith('viking://user/alice/'))).toEqual([]);
  // More than the 256 KB an import reads at a time (zip-read.ts).
  expect(result.copied.byteLength).toBeGreaterThan(300_000);
  expect(result.copied.result).toEqual({
    uri: 'viking://resources/copy/logbook',
    skipped: false,
    nodes: 2,
    vectors: 'restored',
  });
  expect(result.copied.source.map((n) => n.path)).toEqual(['', '/log.md']);
  expect(result.copied.source[1]!.l2!.length).toBeGreaterThan(590_000);
  expect(result.copied.target).toEqual(result.copied.source);
  expect(result.tampered).toEqual([
    { name: 'a file changed and zipped again', code: 'CORRUPT_INPUT', unchanged: true },
    { name: 'a byte of a file flipped in place', code: 'CORRUPT_INPUT', unchanged: true },
  ]);

  node ??= runOvpackScenario({ stores: ['memory', 'memory'] });
  const inNode = await node;
  expect(result.found.map((f) => f.source.map((hit) => hit.path))).toEqual(
    inNode.found.map((f) => f.source.map((hit) => hit.path)),
  );
  expect(result.source).toEqual(inNode.source);
}
