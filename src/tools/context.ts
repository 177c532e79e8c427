// context: the prompt-ready block of longship.context() (docs/guide/context.md) within a token budget,
// each part cited by its URI, and what was left out and why.

import * as v from 'valibot';
import type { AssembledContext } from '../assemble/context-options.js';
import { count, layer, query, sessionId, targetUri } from './fields.js';
import { defineTool } from './tool.js';

export const defaultContextTokens = 2000;
export const maxContextTokens = 1_000_000;

/** context()'s result; a tool never asks for a digest. */
export type ContextOutput = Omit<AssembledContext, 'digest'>;

export const context = defineTool({
  name: 'context',
  title: 'Context for the next prompt',
  description:
    'The memories, resources and skills that best match a query, as one block that fits a token budget: ' +
    'each at the richest layer that fits (L2 whole, else the passages that match, else L1 overview, else L0 ' +
    'abstract), each with its viking:// URI to cite. With a sessionId, what earlier calls gave that session ' +
    'is left out unless it changed.',
  input: v.strictObject({
    query: query('What the context is for, in plain words'),
    tokens: v.optional(
      count(
        1,
        maxContextTokens,
        `The most tokens the block may take (o200k_base), its framing included (default ${defaultContextTokens})`,
      ),
      defaultContextTokens,
    ),
    sessionId: v.optional(
      sessionId('A session: what its earlier context calls returned is left out unless it changed'),
    ),
    targetUri,
    maxLayer: v.optional(
      layer('The richest layer to show: L0 abstracts, L1 overviews, L2 (default) whole content'),
    ),
  }),
  readOnly: true,
  run: async (longship, input, { signal, session }): Promise<ContextOutput> => {
    const id = input.sessionId ?? session;
    const { digest: _, ...result } = await longship.context(input.query, {
      budget: { tokens: input.tokens },
      ...(id === undefined ? {} : { session: id }),
      ...(input.targetUri === undefined ? {} : { targetUri: input.targetUri }),
      ...(input.maxLayer === undefined ? {} : { maxLayer: input.maxLayer }),
      ...(signal ? { signal } : {}),
    });
    return result;
  },
  // The block itself; when nothing fits, a line saying how many hits were left out and why.
  text: ({ text, leftOut }) => {
    if (text !== '') return text;
    if (leftOut.length === 0) return 'Nothing matched the query.';
    return `No context fits: ${leftOut.length} hits left out (${reasons(leftOut)}).`;
  },
});

/** `3 budget, 1 delivered`: why the hits were left out, counted. */
function reasons(leftOut: readonly { reason: string }[]): string {
  const counts = new Map<string, number>();
  for (const { reason } of leftOut) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ');
}
