// add_memory: a memory written where a session's commit writes the memories it extracts
// (docs/guide/retrieval.md, "Sessions and memory"), so a memory a model adds by hand and one extracted
// from a conversation about the same thing are one node: user memories under viking://user/default/memories
// (preferences/, entities/, events/, the one file profile), the agent's own under
// viking://agent/default/memories/notes.

import * as v from 'valibot';
import { clampText } from '../context/summarize.js';
import type { VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import { memoryCategories } from '../llm/prompts.js';
import { memoryUri } from '../session/extract.js';
import { defineTool } from './tool.js';
import type { ToolsLongship } from './tools-longship.js';

/** The longest memory add_memory writes: a memory is a few sentences, not a document. */
export const maxMemoryChars = 4000;

export interface AddMemoryOutput {
  uri: string;
  /** False when the memory already held this text: nothing was written. */
  written: boolean;
}

export const addMemory = defineTool({
  name: 'add_memory',
  title: 'Remember something',
  description:
    'Writes a memory for later conversations. About the user: category preferences, entities or events ' +
    "(viking://user/default/memories/<category>/<name>) or profile (one file); the agent's own notes: agent (the " +
    'default, viking://agent/default/memories/notes/<name>). The same category and name adds to that memory, once. ' +
    'Found by find once this returns.',
  input: v.strictObject({
    content: v.pipe(
      v.string('must be a string'),
      v.description('What to remember, in a sentence or a few'),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(maxMemoryChars, `must be at most ${maxMemoryChars} characters`),
    ),
    category: v.optional(
      v.pipe(
        v.picklist(memoryCategories, `must be one of ${memoryCategories.join(', ')}`),
        v.description(
          "About the user: preferences, entities, events, or profile (one file); the agent's own notes: agent (default)",
        ),
      ),
      'agent',
    ),
    name: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.description('A short name, e.g. indentation (default: its first words); the same name adds to it'),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(120, 'must be at most 120 characters'),
      ),
    ),
  }),
  readOnly: false,
  run: async (longship, input, { signal }): Promise<AddMemoryOutput> => {
    const name = input.name ?? input.content.split(/\s+/).slice(0, 6).join(' ');
    const uri = memoryUri(longship.namespace, input.category, name);
    const before = await existingText(longship, uri);
    if (before?.includes(input.content)) return { uri, written: false };
    const content = before ? `${before}\n\n${input.content}` : input.content;
    await longship.write(uri, content, {
      parents: true,
      // As a commit's extraction does: a memory is short, its text is its overview, and no summariser
      // (an LLM one) is asked for it.
      overview: clampText(content, 1500),
      meta: { origin: 'tool', category: input.category, title: name },
      ...(signal ? { signal } : {}),
    });
    return { uri, written: true };
  },
});

/** The memory already at `uri`, if any; a directory there is not a memory to add to. */
async function existingText(longship: ToolsLongship, uri: VikingUri): Promise<string | undefined> {
  const node = await longship.stat(uri).catch((error: unknown) => {
    if (error instanceof LongshipError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  });
  if (!node) return undefined;
  if (node.kind === 'dir') throw new LongshipError('IS_A_DIRECTORY', `add_memory: ${uri} is a directory`);
  return longship.read(uri);
}
