// A Longship in a Durable Object reset by the platform in the middle of an ingest (ctx.abort(), under
// Miniflare): what it acknowledged before is there when it wakes, and again after a restart over the
// same storage; verify() passes; each document of the folder it was ingesting is whole or absent;
// and the folder, ingested again, goes in whole.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgents } from './durable-object-agents-miniflare.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-do-abort-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Added one by one, each acknowledged before the next. */
const acknowledged = [
  { name: 'tides.md', text: 'Spring tides follow the new moon and the full moon.' },
  { name: 'kilns.md', text: 'A kiln fires stoneware clay hotter than earthenware.' },
  { name: 'looms.md', text: 'A treadle loom lifts the warp threads in patterns.' },
];

/** A folder of 150 notes, written in three commits of up to 64 documents. */
const notes = Array.from({ length: 150 }, (_, i) => ({
  path: `note-${String(i).padStart(3, '0')}.md`,
  content: `Note ${i} of the logbook: the lighthouse keeper counted ${i * 7} gulls at dawn.`,
}));
const logbook = 'viking://resources/logbook';

const query = (path: string, uri: string) => `${path}?uri=${encodeURIComponent(uri)}`;

/** The folder's notes in the store, each checked to be whole: its whole text, and found by it. */
async function wholeNotes(miniflare: Miniflare, agent: string): Promise<number> {
  const tops = await ask<string[]>(miniflare, `${agent}/ls`);
  if (!tops.includes(logbook)) return 0;
  const written = await ask<string[]>(miniflare, query(`${agent}/ls`, logbook));
  for (const uri of written) {
    const note = notes.find((n) => uri === `${logbook}/${n.path}`);
    expect(note, uri).toBeDefined();
    expect(await ask(miniflare, query(`${agent}/read`, uri))).toBe(note!.content);
  }
  return written.length;
}

/** Every acknowledged document, read by its URI and found by its text; and verify() passes. */
async function acknowledgedAreThere(miniflare: Miniflare, agent: string, uris: string[]): Promise<void> {
  expect(await ask(miniflare, `${agent}/verify`)).toEqual({ ok: true, problems: [] });
  for (const [i, { text }] of acknowledged.entries()) {
    expect(await ask(miniflare, query(`${agent}/read`, uris[i]!))).toBe(text);
    const hits = await ask<{ uri: string }[]>(miniflare, `${agent}/find?q=${encodeURIComponent(text)}`);
    expect(hits[0]?.uri).toBe(uris[i]);
  }
}

describe('a Longship in a Durable Object reset mid-ingest by ctx.abort()', () => {
  // `ada` embeds in-process: the ingest waits for no I/O, so workerd has flushed none of its commits
  // when the object resets. `remote-bea` waits for a timer before each embedding call, as an
  // embedder over the network would: its first commit is flushed before the reset.
  it.each([
    { agent: 'ada', kept: 'none' },
    { agent: 'remote-bea', kept: 'some' },
  ])(
    '$agent keeps what it acknowledged and $kept of the folder, each note whole',
    {
      timeout: 240_000,
    },
    async ({ agent, kept }) => {
      let miniflare = await startAgents(folder);
      const uris: string[] = [];
      let written: number;
      try {
        for (const doc of acknowledged) {
          uris.push(...(await ask<{ uris: string[] }>(miniflare, `${agent}/add`, doc)).uris);
        }
        expect(uris).toEqual(acknowledged.map((doc) => `viking://resources/${doc.name}`));
        // The object resets itself after the second of the folder's commits, with the third to come.
        const ingest = await miniflare.dispatchFetch(`http://agents/${agent}/ingest`, {
          method: 'POST',
          body: JSON.stringify({ name: 'logbook', files: notes, abortAfter: 2 }),
        });
        // The in-flight request failed with the reset, which only the second commit makes.
        expect(ingest.status).toBe(500);
        expect(await ingest.text()).toMatch(/aborted mid-ingest/);
        // A new request wakes the object, which opens its Longship again from its storage.
        await acknowledgedAreThere(miniflare, agent, uris);
        written = await wholeNotes(miniflare, agent);
        if (kept === 'none') expect(written).toBe(0);
        else {
          expect(written).toBeGreaterThan(0);
          expect(written).toBeLessThan(notes.length);
        }
      } finally {
        await miniflare.dispose();
      }
      // And after a restart over the same storage.
      miniflare = await startAgents(folder);
      try {
        await acknowledgedAreThere(miniflare, agent, uris);
        expect(await wholeNotes(miniflare, agent)).toBe(written);
        // The folder again, to the end: the notes kept are unchanged, the others added.
        const again = await ask<{ uris: string[] }>(miniflare, `${agent}/ingest`, {
          name: 'logbook',
          files: notes,
        });
        expect(again.uris).toHaveLength(notes.length);
        expect(await wholeNotes(miniflare, agent)).toBe(notes.length);
        await acknowledgedAreThere(miniflare, agent, uris);
      } finally {
        await miniflare.dispose();
      }
    },
  );
});
