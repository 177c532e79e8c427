// longshipTools() driven through the AI SDK itself (docs/guide/ai-sdk.md): a scripted mock model asks for
// tool calls, the SDK validates the input and runs them against a real Longship, and the results
// reach the model's next step.
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { longshipTools } from '../../src/ai/tools.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { type Step, scriptedModel } from './scripted-model.js';

let longship: Longship;

beforeEach(async () => {
  longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
  await longship.write(
    'viking://resources/ops/retries.md',
    'Retries back off exponentially, five attempts at most.',
    {
      parents: true,
    },
  );
  await longship.write('viking://resources/ops/deploys.md', 'Deploys go out on Tuesdays after the freeze.', {
    parents: true,
  });
});
afterEach(() => longship.close());

/** Runs the script through generateText; returns the result and the mock model. */
async function run(steps: Step[], tools = longshipTools(longship)) {
  const model = scriptedModel(steps);
  const result = await generateText({
    model,
    tools,
    prompt: 'Help me.',
    stopWhen: stepCountIs(steps.length),
  });
  return { result, model };
}

/** What the model was sent back as tool results in the call after `step` (0-based step). */
function toolResultsSent(model: ReturnType<typeof scriptedModel>, step: number) {
  const prompt = model.doGenerateCalls[step + 1]!.prompt;
  return prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
}

describe('longshipTools() through generateText', () => {
  it('find: the hits, URIs and scores reach the next step', async () => {
    const { result, model } = await run([
      { calls: [{ toolName: 'find', input: { query: 'how do retries back off', limit: 2 } }] },
      { text: 'Five attempts.' },
    ]);
    expect(result.text).toBe('Five attempts.');
    const [call] = result.steps[0]!.toolResults;
    expect(call?.toolName).toBe('find');
    const found = call!.output as {
      resources: { uri: string; context_type: string; score: number }[];
      total: number;
    };
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThanOrEqual(2);
    expect(found.resources[0]!.uri).toBe('viking://resources/ops/retries.md');
    expect(found.resources[0]!.context_type).toBe('resource');
    const scores = found.resources.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const sent = toolResultsSent(model, 0);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain('viking://resources/ops/retries.md');
  });

  it('context: a block within the budget, its citations, and nothing twice for one session', async () => {
    const tools = longshipTools(longship, { session: 'chat-1' });
    const { result, model } = await run(
      [
        { calls: [{ toolName: 'context', input: { query: 'how do retries back off', tokens: 300 } }] },
        { calls: [{ toolName: 'context', input: { query: 'how do retries back off', tokens: 300 } }] },
        { text: 'Five attempts.' },
      ],
      tools,
    );
    type Output = {
      text: string;
      tokens: number;
      parts: { uri: string; type: string; layer: string }[];
      leftOut: unknown[];
    };
    const [first, second] = result.steps.slice(0, 2).map((step) => step.toolResults[0]!.output) as Output[];
    expect(first!.tokens).toBeGreaterThan(0);
    expect(first!.tokens).toBeLessThanOrEqual(300);
    expect(first!.parts).toContainEqual(
      expect.objectContaining({ uri: 'viking://resources/ops/retries.md', type: 'resource', layer: 'L2' }),
    );
    expect(first!.text).toContain('Retries back off exponentially');
    expect(JSON.stringify(toolResultsSent(model, 0)[0])).toContain('viking://resources/ops/retries.md');
    // The same session's next call: what it was given is not given again.
    expect(second).toMatchObject({ text: '', tokens: 0, parts: [] });
    expect(second!.leftOut.length).toBeGreaterThanOrEqual(first!.parts.length);
    // Without a session, each call stands alone; the default budget is 2000.
    const alone = await run([
      { calls: [{ toolName: 'context', input: { query: 'how do retries back off' } }] },
      { text: 'ok' },
    ]);
    const output = alone.result.steps[0]!.toolResults[0]!.output as Output & { budget: { tokens: number } };
    expect(output.parts.length).toBe(first!.parts.length);
    expect(output.budget).toEqual({ tokens: 2000 });
  });

  it('read and ls: the text at the chosen layer, and a directory listing', async () => {
    const { result } = await run([
      {
        calls: [
          { toolName: 'read', input: { uri: 'viking://resources/ops/deploys.md' } },
          { toolName: 'read', input: { uri: 'viking://resources/ops/deploys.md', layer: 'L0' } },
          { toolName: 'ls', input: { uri: 'viking://resources/ops' } },
        ],
      },
      { text: 'done' },
    ]);
    const outputs = result.steps[0]!.toolResults.map((r) => r.output);
    expect(outputs[0]).toEqual({
      uri: 'viking://resources/ops/deploys.md',
      layer: 'L2',
      text: 'Deploys go out on Tuesdays after the freeze.',
    });
    expect(outputs[1]).toEqual({
      uri: 'viking://resources/ops/deploys.md',
      layer: 'L0',
      text: await longship.abstract('viking://resources/ops/deploys.md'),
    });
    const listing = outputs[2] as { nodes: { uri: string; kind: string }[] };
    expect(listing.nodes.map((e) => [e.uri, e.kind])).toEqual([
      ['viking://resources/ops/deploys.md', 'file'],
      ['viking://resources/ops/retries.md', 'file'],
    ]);
  });

  it('read cuts long text to maxChars and says so', async () => {
    await longship.write('viking://resources/long.md', 'word '.repeat(500));
    const tools = longshipTools(longship, { maxChars: 120 });
    const { result } = await run(
      [{ calls: [{ toolName: 'read', input: { uri: 'viking://resources/long.md' } }] }, { text: 'ok' }],
      tools,
    );
    const output = result.steps[0]!.toolResults[0]!.output as { text: string; truncated?: boolean };
    expect(output.truncated).toBe(true);
    expect(output.text.length).toBeLessThanOrEqual(120);
    expect(output.text).toMatch(/^(word )*word$/);
  });

  it('read keeps code as it is, and cuts it after a whole line', async () => {
    const code = [
      'function retry(attempt) {',
      '\tif (attempt > 5) {',
      '\t\tthrow new Error("gave up");',
      '\t}',
      '\treturn 200 * 2 ** attempt;',
      '}',
    ].join('\n');
    await longship.write('viking://resources/retry.js', code);
    const whole = await run([
      { calls: [{ toolName: 'read', input: { uri: 'viking://resources/retry.js' } }] },
      { text: 'ok' },
    ]);
    expect(whole.result.steps[0]!.toolResults[0]!.output).toEqual({
      uri: 'viking://resources/retry.js',
      layer: 'L2',
      text: code,
    });
    await longship.write('viking://resources/long.js', code.repeat(20));
    const cut = await run(
      [{ calls: [{ toolName: 'read', input: { uri: 'viking://resources/long.js' } }] }, { text: 'ok' }],
      longshipTools(longship, { maxChars: 100 }),
    );
    const output = cut.result.steps[0]!.toolResults[0]!.output as { text: string; truncated?: true };
    expect(output.truncated).toBe(true);
    expect(output.text).toBe(code.repeat(20).slice(0, output.text.length));
    expect(code.repeat(20)[output.text.length]).toBe('\n');
    expect(output.text.split('\n').slice(0, 3)).toEqual(code.split('\n').slice(0, 3));
  });

  it('add_memory writes a memory that find then returns', async () => {
    const { result } = await run([
      {
        calls: [
          {
            toolName: 'add_memory',
            input: {
              content: 'The user prefers tabs over spaces.',
              category: 'preferences',
              name: 'indentation',
            },
          },
        ],
      },
      { calls: [{ toolName: 'find', input: { query: 'tabs or spaces preference' } }] },
      { text: 'Tabs.' },
    ]);
    const written = result.steps[0]!.toolResults[0]!.output;
    expect(written).toEqual({ uri: 'viking://user/default/memories/preferences/indentation', written: true });
    expect(await longship.read('viking://user/default/memories/preferences/indentation')).toBe(
      'The user prefers tabs over spaces.',
    );
    const { memories } = result.steps[1]!.toolResults[0]!.output as { memories: { uri: string }[] };
    expect(memories[0]).toMatchObject({ uri: 'viking://user/default/memories/preferences/indentation' });
  });

  it("add_memory by default is the agent's note, and the same name adds to it once", async () => {
    const note = { content: 'Staging is rebuilt every night.', name: 'staging' };
    const { result } = await run([
      { calls: [{ toolName: 'add_memory', input: note }] },
      {
        calls: [{ toolName: 'add_memory', input: { ...note, content: 'Staging uses the eu-west region.' } }],
      },
      { calls: [{ toolName: 'add_memory', input: note }] },
      { text: 'ok' },
    ]);
    const outputs = result.steps.slice(0, 3).map((s) => s.toolResults[0]!.output);
    const uri = 'viking://agent/default/memories/notes/staging';
    expect(outputs).toEqual([
      { uri, written: true },
      { uri, written: true },
      { uri, written: false },
    ]);
    expect(await longship.read(uri)).toBe(
      'Staging is rebuilt every night.\n\nStaging uses the eu-west region.',
    );
  });
});
