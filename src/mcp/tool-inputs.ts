// What each MCP tool accepts, as zod schemas (the SDK's own schema library): strict objects, so a
// missing or an unknown field is refused before anything runs (docs/mcp.md, "Bad input").

import * as z from 'zod';

const uri = z.string().min(1).describe('A viking:// URI, e.g. viking://resources/notes');
const query = z.string().min(1).describe('What to look for, in plain words');
const limit = z.number().int().min(1).max(100).optional().describe('At most this many hits (default 10)');
const targetUri = uri.optional().describe('Search only this subtree (default: every root)');
const sessionId = z.string().min(1).max(128).describe('The session: any stable id your agent chooses');

export const findInput = z.strictObject({
  query,
  targetUri,
  limit,
  mode: z
    .enum(['quick', 'thinking'])
    .optional()
    .describe('quick (default) or thinking: a walk down the tree'),
});

export const searchInput = z.strictObject({
  query,
  targetUri,
  limit,
  sessionId: sessionId.optional().describe("A session whose recent messages shape the query's intent"),
});

export const contextInput = z.strictObject({
  query,
  tokens: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .describe('The most tokens the block may take (o200k_base), its framing included'),
  sessionId: sessionId
    .optional()
    .describe('A session: what its earlier context calls returned is left out unless it changed'),
  targetUri,
  maxLayer: z
    .enum(['L0', 'L1', 'L2'])
    .optional()
    .describe('The richest layer to show: L0 abstracts, L1 overviews, L2 (default) whole content'),
});

export const readInput = z.strictObject({
  uri,
  layer: z
    .enum(['L0', 'L1', 'L2'])
    .optional()
    .describe('L0: a one-line abstract, L1: an overview, L2 (default): the whole content'),
});

export const lsInput = z.strictObject({ uri });

export const treeInput = z.strictObject({
  uri,
  depth: z.number().int().min(1).max(16).optional().describe('How many levels down (default 3)'),
});

export const addResourceInput = z.strictObject({
  content: z
    .string()
    .min(1)
    .describe('The document, as text (Markdown, HTML, JSON, source code, plain text)'),
  name: z
    .string()
    .min(1)
    .max(255)
    .describe('Its file name, e.g. retries.md: the extension says how to read it'),
  target: uri.optional().describe('The directory to add it under (default viking://resources)'),
  reason: z.string().optional().describe('Why it was added; kept with it'),
});

export const addMemoryInput = z.strictObject({
  content: z.string().min(1).describe('What to remember, in a sentence or a few'),
  owner: z
    .enum(['user', 'agent'])
    .optional()
    .describe('user (default): about the user, under viking://user/memories; agent: viking://agent/memories'),
  name: z
    .string()
    .regex(/^[^/]{1,200}$/, 'a file name, without "/"')
    .optional()
    .describe('Its file name (default: from its first words); the same name replaces a memory'),
});

export const sessionAddMessageInput = z.strictObject({
  sessionId,
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string().describe('The message text'),
});

export const sessionCommitInput = z.strictObject({ sessionId });
