// add_memory: a memory written by remember() (docs/guide/retrieval.md, "Remember"), where a session's
// commit writes the memories it extracts, so a memory a model adds by hand and one extracted from a
// conversation about the same thing are one node. It is written or the tool fails: never dropped.

import * as v from 'valibot';
import { memoryCategories } from '../llm/prompts.js';
import { defineTool } from './tool.js';

/** The longest memory add_memory writes: a memory is a few sentences, not a document. */
export const maxMemoryChars = 4000;

export interface AddMemoryOutput {
  uri: string;
  /** False when the memory already held this text: nothing was added. */
  written: boolean;
  /** Its own place, when a directory there sent it to `uri` instead. */
  wanted?: string;
}

export const addMemory = defineTool({
  name: 'add_memory',
  title: 'Remember something',
  description:
    'Writes a memory for later conversations. About the user: profile (one file: name, role, employer), ' +
    'preferences, entities (people, projects), events; about the assistant: identity and soul (one file ' +
    "each); from the work: cases, trajectories, experiences, tools, skills; the agent's own notes: agent " +
    '(the default). The same category and name adds to that memory, once. Found by find once this returns.',
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
          `The memory kind: ${memoryCategories.join(', ')} (default agent: the agent's own notes)`,
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
    const done = await longship.remember(input.content, {
      kind: input.category,
      ...(input.name ? { name: input.name } : {}),
      ...(signal ? { signal } : {}),
    });
    return {
      uri: done.uri,
      written: done.outcome !== 'held',
      ...(done.wanted ? { wanted: done.wanted } : {}),
    };
  },
});
