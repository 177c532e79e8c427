// The tools that write: add_resource, add_memory, and a session's add_message and commit.

import { defineTool } from './tool.js';
import {
  addMemoryInput,
  addResourceInput,
  sessionAddMessageInput,
  sessionCommitInput,
} from './tool-inputs.js';
import { toolResult } from './tool-results.js';

/** A memory's default file name: its first words, so that the same memory lands on the same node. */
function memoryName(content: string): string {
  const words = content.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return `${words.slice(0, 8).join('-') || 'memory'}.md`;
}

export const addResource = defineTool({
  name: 'add_resource',
  title: 'Add a document',
  description:
    'Adds a text document under viking://resources (or `target`): it is split, summarised and indexed, ' +
    'and found by find once this returns. Adding the same name again updates it.',
  input: addResourceInput,
  readOnly: false,
  run: async (longship, { content, name, target, reason }) => {
    const { uris, added, changed, unchanged, removed } = await longship.addResource(content, {
      name,
      target,
      reason,
    });
    return toolResult({ uris, added, changed, unchanged, removed });
  },
});

export const addMemory = defineTool({
  name: 'add_memory',
  title: 'Remember something',
  description:
    "Writes a memory: about the user (viking://user/memories, default) or about the agent's own work " +
    '(viking://agent/memories). Found by find and search once this returns.',
  input: addMemoryInput,
  readOnly: false,
  run: async (longship, { content, owner = 'user', name = memoryName(content) }) => {
    const node = await longship.write(`viking://${owner}/memories/${name}`, content, { parents: true });
    return toolResult({ uri: node.uri, abstract: node.abstract });
  },
});

export const sessionAddMessage = defineTool({
  name: 'session_add_message',
  title: 'Add a message to a session',
  description:
    'Adds a message to a session (created on first use). search with the same sessionId reads its recent ' +
    'messages; session_commit archives them and extracts memories.',
  input: sessionAddMessageInput,
  readOnly: false,
  run: async (longship, { sessionId, role, content }) => {
    // Stored when it resolves: the next request (each a fresh server over HTTP) opens the same session.
    const session = longship.session(sessionId);
    await session.addMessage(role, content);
    return toolResult({ sessionId, uri: session.uri, messages: (await session.messages()).length });
  },
});

export const sessionCommit = defineTool({
  name: 'session_commit',
  title: 'Commit a session',
  description:
    "Archives a session's messages and, where Longship has an LLM, extracts memories from them; returns " +
    'the archive and the memories written.',
  input: sessionCommitInput,
  readOnly: false,
  run: async (longship, { sessionId }) => {
    const { archive, messages, extractions } = await longship.session(sessionId).commit();
    return toolResult({ sessionId, archive, messages, extractions });
  },
});
