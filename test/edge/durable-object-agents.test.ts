// Fifty agents, a Durable Object each (Miniflare, the bundled model): all of them ingest and search at
// once, and none sees another's documents. Each agent's documents carry its own secret word; every
// answer an agent gets is checked by content for the others'.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgents } from './durable-object-agents-miniflare.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-do-agents-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const count = 50;
const agents = Array.from({ length: count }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
/** A made-up word per agent, letters only, none inside another: agent-07 → zorbah. */
const letter = (digit: number) => 'abcdefghij'[digit];
const secrets = agents.map((_, i) => `zorb${letter(Math.floor(i / 10))}${letter(i % 10)}`);
const secretPattern = /\bzorb[a-j]{2}\b/g;

/** The same names for every agent, each its own content: a mix-up would show in the content. */
function documentsOf(i: number) {
  const secret = secrets[i]!;
  return {
    shared: [
      { name: 'garden.md', text: `The ${secret} garden keeps tomatoes and basil in raised beds.` },
      { name: 'ledger.md', text: `Ledger: ${secret} paid the ferry toll of nine coins on Tuesday.` },
    ],
    // In the agent's own namespace: viking://~ is viking://user/{agent}.
    diary: { uri: 'viking://~/resources/diary.md', text: `Diary of ${secret}: rye bread with caraway.` },
  };
}

type Hit = { uri: string; abstract: string };

/** The secret words in `text`. */
const secretsIn = (text: string) => text.match(secretPattern) ?? [];

/** What one agent does: add and write, then look. */
async function run(miniflare: Miniflare, i: number) {
  const agent = agents[i]!;
  const { shared, diary } = documentsOf(i);
  // Its writes at once too: the object takes them in while its earlier requests wait.
  await Promise.all([
    ...shared.map((doc) => ask(miniflare, `${agent}/add`, doc)),
    ask(miniflare, `${agent}/write?uri=${encodeURIComponent(diary.uri)}`, { text: diary.text }),
  ]);
  const other = secrets[(i + 1) % count]!;
  const listed = [
    ...(await ask<string[]>(miniflare, `${agent}/ls`)),
    ...(await ask<string[]>(miniflare, `${agent}/ls?uri=${encodeURIComponent('viking://~/resources')}`)),
  ];
  const read = await Promise.all(
    listed.map((uri) => ask<string>(miniflare, `${agent}/read?uri=${encodeURIComponent(uri)}`)),
  );
  return {
    listed,
    read,
    own: await ask<Hit[]>(miniflare, `${agent}/find?q=${secrets[i]}`),
    other: await ask<Hit[]>(miniflare, `${agent}/find?q=${other}`),
    verify: await ask(miniflare, `${agent}/verify`),
  };
}

describe('fifty agents, a Durable Object each', () => {
  it('ingest and search at once, and each finds and lists only its own documents', {
    timeout: 300_000,
  }, async () => {
    const miniflare = await startAgents(folder);
    try {
      // Every agent's requests in flight together.
      const results = await Promise.all(agents.map((_, i) => run(miniflare, i)));
      for (const [i, result] of results.entries()) {
        const agent = agents[i]!;
        const secret = secrets[i]!;
        const { shared, diary } = documentsOf(i);
        expect(result.verify).toEqual({ ok: true, problems: [] });
        // ls: its three documents, each read back as the agent wrote it.
        expect(result.listed.sort()).toEqual([
          'viking://resources/garden.md',
          'viking://resources/ledger.md',
          `viking://user/${agent}/resources/diary.md`,
        ]);
        expect(result.read.sort()).toEqual([...shared.map((doc) => doc.text), diary.text].sort());
        // find its secret: its own documents, and only its secret in what comes back.
        expect(result.own.length).toBeGreaterThan(0);
        expect(result.own.some((hit) => hit.abstract.includes(secret))).toBe(true);
        for (const hit of [...result.own, ...result.other]) {
          expect(hit.uri).toMatch(new RegExp(`^viking://(resources/|user/${agent}/)`));
          expect(secretsIn(`${hit.uri} ${hit.abstract}`).filter((word) => word !== secret)).toEqual([]);
        }
      }
    } finally {
      await miniflare.dispose();
    }
  });
});
