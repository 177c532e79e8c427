// add_resource: a text document in, split, summarised and indexed (addResource(), docs/guide/retrieval.md).

import * as v from 'valibot';
import { uri } from './fields.js';
import { defineTool } from './tool.js';

export interface AddResourceOutput {
  /** The document's node. */
  uris: string[];
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
}

export const addResource = defineTool({
  name: 'add_resource',
  title: 'Add a document',
  description:
    'Adds a text document under viking://resources (or `target`): it is split, summarised and indexed, ' +
    'and found by find once this returns. Adding the same name again updates it.',
  input: v.strictObject({
    content: v.pipe(
      v.string('must be a string'),
      v.description('The document, as text (Markdown, HTML, JSON, source code, plain text)'),
      v.minLength(1, 'must not be empty'),
    ),
    name: v.pipe(
      v.string('must be a string'),
      v.description('Its file name, e.g. retries.md: the extension says how to read it'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(255, 'must be at most 255 characters'),
    ),
    target: v.optional(uri('The directory to add it under (default viking://resources)')),
    reason: v.optional(v.pipe(v.string('must be a string'), v.description('Why it was added; kept with it'))),
  }),
  readOnly: false,
  run: async (longship, input, { signal }): Promise<AddResourceOutput> => {
    // As a Blob: a string that names a file on the server's disk is refused by addResource(), and an
    // agent must learn nothing of that disk from whether its text went in.
    const content = new Blob([input.content]);
    const { uris, added, changed, unchanged, removed } = await longship.addResource(content, {
      name: input.name,
      ...(input.target === undefined ? {} : { target: input.target }),
      ...(input.reason === undefined ? {} : { reason: input.reason }),
      ...(signal ? { signal } : {}),
    });
    return { uris, added, changed, unchanged, removed };
  },
});
