// read: one node's text at one layer, as it is: newlines, indentation and code kept. A surface with
// a limit (the AI SDK's maxChars) gets the text cut at a line and marked `truncated`.

import * as v from 'valibot';
import { layer, uri } from './fields.js';
import { defineTool } from './tool.js';

export interface ReadOutput {
  uri: string;
  layer: 'L0' | 'L1' | 'L2';
  text: string;
  /** The text was longer than the surface's `maxChars`: this is its beginning, whole lines. */
  truncated?: true;
}

const methods = { L0: 'abstract', L1: 'overview', L2: 'read' } as const;

export const read = defineTool({
  name: 'read',
  title: 'Read a node',
  description:
    'Reads a viking:// node at a layer: L0 its one-line abstract, L1 its overview, L2 (default) its whole ' +
    'content, exactly as stored. A long document is kept as a directory of its sections: at L2 it (or a ' +
    'section directory) reads as its whole text. Other directories have L0 and L1 only.',
  input: v.strictObject({
    uri: uri('The viking:// node to read, e.g. viking://resources/docs/retries.md'),
    layer: v.optional(
      layer('L0: a one-line abstract, L1: an overview, L2 (default): the whole content'),
      'L2',
    ),
  }),
  readOnly: true,
  run: async (longship, input, { maxChars }): Promise<ReadOutput> => {
    const text = await longship[methods[input.layer]](input.uri);
    return { uri: input.uri, layer: input.layer, ...cutAtLine(text, maxChars) };
  },
  text: (output) => output.text,
});

/**
 * `text` if it is at most `maxChars` long; else its beginning: the whole lines that fit, or, when
 * those are less than half of `maxChars` (a long line), up to a space, else exactly `maxChars`;
 * never half of a surrogate pair.
 */
export function cutAtLine(text: string, maxChars: number | undefined): { text: string; truncated?: true } {
  if (maxChars === undefined || text.length <= maxChars) return { text };
  let room = text.slice(0, maxChars);
  if (/[\uD800-\uDBFF]$/.test(room)) room = room.slice(0, -1);
  const line = room.lastIndexOf('\n');
  const space = room.search(/\s\S*$/);
  const end = [line, space].find((at) => at >= room.length / 2) ?? room.length;
  return { text: room.slice(0, end), truncated: true };
}
