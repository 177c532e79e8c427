// add_memory writes where a session's commit writes the memories it extracts (docs/guide/retrieval.md,
// "Sessions and memory"): a memory a model adds by hand and one extracted from a conversation, of
// the same category and name, are one node.
import { afterEach, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import type { LLM } from '../../src/llm/llm.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { addMemory } from '../../src/tools/add-memory.js';
import { checkToolInput } from '../../src/tools/tool-input.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

/** An LLM that extracts `memories` from any conversation. */
function extracting(memories: object[]): LLM {
  return {
    model: 'scripted',
    usage,
    complete: async () => ({ text: JSON.stringify({ summary: 'A talk.', memories }), usage }),
  };
}

let longship: Longship;
afterEach(() => longship.close());

async function open(llm: LLM): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
  return openLongship({ store, embedder, llm });
}

const add = (input: object) => addMemory.run(longship, checkToolInput(addMemory, input), {});

describe('add_memory and a session commit', () => {
  it.each([
    ['preferences', 'Indentation', 'viking://user/memories/preferences/indentation'],
    ['entities', 'Ana Lopez', 'viking://user/memories/entities/ana-lopez'],
    ['events', 'Q3 launch', 'viking://user/memories/events/q3-launch'],
    ['profile', 'Name', 'viking://user/memories/profile'],
    ['agent', 'Staging', 'viking://agent/memories/notes/staging'],
  ])('%s %j: the same node, added to once', async (category, name, uri) => {
    longship = await open(
      extracting([{ category, name, abstract: 'What was said.', content: 'Said in the conversation.' }]),
    );
    const session = longship.session('talk');
    await session.addMessage('user', 'Something worth remembering.');
    const { extractions } = await session.commit();
    expect(extractions.map((e) => [e.error, e.memories])).toEqual([[undefined, [uri]]]);
    expect(await add({ content: 'Added by hand.', category, name })).toEqual({ uri, written: true });
    expect(await longship.read(uri)).toBe('Said in the conversation.\n\nAdded by hand.');
    expect(await add({ content: 'Added by hand.', category, name })).toEqual({ uri, written: false });
  });
});
