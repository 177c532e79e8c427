// The model test's context() call (docs/guide/context.md): a query under a budget from a single token to a
// few thousand, at times with maxLayer, quotas, a word-counting tokenizer, and a session (its id or
// its Session object), whose deliveries the model keeps with the session's state (session-layout.ts).

import fc from 'fast-check';
import type { ContextOptions } from '../../src/assemble/context-options.js';
import { defaultTokenizer } from '../../src/assemble/tokenizer.js';
import { LongshipError } from '../../src/errors.js';
import { query, sessionId } from './arbitraries.js';
import { checkFound, ModelMismatch } from './checks.js';
import { type ContextCall, checkContext, type Layer, LayerTexts } from './context-checks.js';
import type { Delivery } from './session-layout.js';
import { Step, show } from './step.js';
import type { ModelSwitches } from './switches.js';

/** context()'s default number of hits considered. */
const candidates = 10;

const words = { name: 'words', count: (text: string) => text.split(/\s+/).filter(Boolean).length };

/** `value` `times` in `times + without`, else undefined. */
const sometimes = <T>(value: fc.Arbitrary<T>, without: number, times = 1) =>
  fc.oneof({ weight: without, arbitrary: fc.constant(undefined) }, { weight: times, arbitrary: value });

const drawn = fc.record({
  query,
  budget: fc.oneof(
    fc.integer({ min: 1, max: 40 }),
    fc.integer({ min: 40, max: 400 }),
    fc.integer({ min: 400, max: 4000 }),
  ),
  maxLayer: sometimes(fc.constantFrom<Layer>('L0', 'L1', 'L2'), 2),
  quotas: sometimes(
    fc.record(
      {
        memories: fc.integer({ min: 0, max: 2 }),
        resources: fc.integer({ min: 0, max: 3 }),
        skills: fc.integer({ min: 0, max: 1 }),
      },
      { requiredKeys: [] },
    ),
    3,
  ),
  // Mostly with a session, so that later calls meet what earlier ones delivered.
  session: sometimes(fc.record({ id: sessionId, object: fc.boolean() }), 1, 2),
  wordCount: fc.boolean(),
});
type Drawn = typeof drawn extends fc.Arbitrary<infer T> ? T : never;

function labelOf({ query, budget, maxLayer, quotas, session, wordCount }: Drawn): string {
  const options = {
    budget: { tokens: budget },
    ...(maxLayer ? { maxLayer } : {}),
    ...(quotas ? { quotas } : {}),
    ...(session ? { session: session.object ? `session(${session.id})` : session.id } : {}),
    ...(wordCount ? { tokenizer: 'words' } : {}),
  };
  return `context(${show(query)}, ${show(options)})`;
}

export function contextCmd(switches: ModelSwitches) {
  return drawn.map(
    (d) =>
      new Step(labelOf(d), async (model, real) => {
        const label = labelOf(d);
        const { longship } = real;
        // Directories' summaries are refreshed by the queue: read L0 and L1 once nothing runs.
        await longship.waitProcessed();
        const session = d.session && (d.session.object ? real.session(d.session.id) : d.session.id);
        const hits = await longship.search(d.query, {
          limit: candidates,
          maxRelations: 0,
          ...(typeof session === 'object' ? { session } : {}),
        });
        checkFound(model, hits, `${label}: search()`);
        const options: ContextOptions = {
          budget: { tokens: d.budget },
          ...(d.maxLayer ? { maxLayer: d.maxLayer } : {}),
          ...(d.quotas ? { quotas: d.quotas } : {}),
          ...(session ? { session } : {}),
          ...(d.wordCount ? { tokenizer: words } : {}),
        };
        const id = d.session?.id;
        const blocked = id !== undefined && model.sessions.blocked(id);
        let result: Awaited<ReturnType<typeof longship.context>>;
        try {
          result = await longship.context(d.query, options);
        } catch (error) {
          // Recording what a session was given makes its directory: a file in the way fails the call.
          if (blocked && error instanceof LongshipError && error.code === 'NOT_A_DIRECTORY') return;
          throw new ModelMismatch(`${label}: failed with ${String(error)}`, { cause: error });
        }
        const texts = new LayerTexts(model, longship);
        const call: ContextCall = {
          label,
          budget: d.budget,
          maxLayer: d.maxLayer,
          quotas: d.quotas,
          count: d.wordCount ? words.count : (await defaultTokenizer()).count,
          tokenizer: d.wordCount ? 'words' : 'o200k_base',
          delivered: id === undefined ? undefined : model.sessions.state(id).delivered,
          hits,
          changedIsBudget: switches.changedIsBudget,
        };
        await checkContext(call, texts, result);
        if (id === undefined) return;
        const given = new Map<string, Delivery>();
        for (const part of result.parts) {
          const text = part.excerpt ? (await texts.of(part.uri, 'L2'))! : part.text;
          given.set(part.uri, { layer: part.layer, excerpt: part.excerpt === true, text });
        }
        const recorded = model.sessions.recordDelivered(id, given);
        if ('code' in recorded)
          throw new ModelMismatch(
            `${label}: succeeded with ${given.size} parts; the model failed with ${recorded.code}`,
          );
      }),
  );
}
