// The tools over a page's RemoteLongship (docs/guide/worker.md): the same calls through the worker
// protocol, here a host and a page in one process over a MessageChannel.
import { generateText, stepCountIs } from 'ai';
import { afterEach, expect, it } from 'vitest';
import { longshipTools } from '../../src/ai/tools.js';
import { connectLongship } from '../../src/worker/connect.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { openTestLongship } from '../worker/fixture.js';
import { scriptedModel } from './scripted-model.js';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

it('add_memory, find, read and context through a RemoteLongship', async () => {
  const host = createLongshipHost({ open: openTestLongship, locks: null });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  host.connect(port1);
  const remote = await connectLongship(port2, { dispose: () => port2.close() });
  const uri = 'viking://user/default/memories/entities/ana';
  const model = scriptedModel([
    {
      calls: [
        {
          toolName: 'add_memory',
          input: { content: 'Ana leads the Q3 plan.', category: 'entities', name: 'Ana' },
        },
      ],
    },
    { calls: [{ toolName: 'find', input: { query: 'who leads the Q3 plan' } }] },
    { calls: [{ toolName: 'read', input: { uri, layer: 'L2' } }] },
    { calls: [{ toolName: 'context', input: { query: 'who leads the Q3 plan', tokens: 200 } }] },
    { text: 'Ana.' },
  ]);
  const result = await generateText({
    model,
    tools: longshipTools(remote),
    prompt: 'Who leads Q3?',
    stopWhen: stepCountIs(5),
  });
  const outputs = result.steps.slice(0, 4).map((step) => step.toolResults[0]?.output);
  expect(outputs[0]).toEqual({ uri, written: true });
  expect((outputs[1] as { memories: { uri: string }[] }).memories[0]?.uri).toBe(uri);
  expect(outputs[2]).toEqual({ uri, layer: 'L2', text: 'Ana leads the Q3 plan.' });
  expect(outputs[3]).toMatchObject({ parts: [{ uri, type: 'memory', layer: 'L2' }] });
  expect((outputs[3] as { text: string }).text).toContain('Ana leads the Q3 plan.');
  expect(result.text).toBe('Ana.');
});

it('the tools offered on request work through a RemoteLongship too', async () => {
  const host = createLongshipHost({ open: openTestLongship, locks: null });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  host.connect(port1);
  const remote = await connectLongship(port2, { dispose: () => port2.close() });
  const tools = longshipTools(remote, {
    tools: ['add_resource', 'tree', 'session_add_message', 'search', 'session_commit'],
  });
  const call = { toolCallId: 'call-1', messages: [], context: {} };
  expect(
    await tools.add_resource.execute!({ content: 'Retries back off.', name: 'retries.md' }, call),
  ).toEqual({
    uris: ['viking://resources/retries.md'],
    added: 1,
    changed: 0,
    unchanged: 0,
    removed: 0,
  });
  expect(await tools.tree.execute!({ uri: 'viking://resources' }, call)).toMatchObject({
    nodes: [{ uri: 'viking://resources/retries.md', kind: 'file' }],
  });
  const message = { sessionId: 'chat-1', role: 'user' as const, content: 'How do retries back off?' };
  expect(await tools.session_add_message.execute!(message, call)).toEqual({
    sessionId: 'chat-1',
    uri: 'viking://user/default/sessions/chat-1',
    messages: 1,
  });
  const searched = (await tools.search.execute!({ query: 'retries', sessionId: 'chat-1' }, call)) as {
    resources: { uri: string }[];
  };
  expect(searched.resources.map((hit) => hit.uri)).toContain('viking://resources/retries.md');
  expect(await tools.session_commit.execute!({ sessionId: 'chat-1' }, call)).toMatchObject({
    archive: 'viking://user/default/sessions/chat-1/0001',
    messages: 1,
  });
});
