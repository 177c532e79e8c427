// The Ingestor over a store: its jobs (add-resource.ts, add-skill.ts, remove-skill.ts,
// refresh-parents.ts) run one at a time.
import { contextTypeOf, parseUri } from '../context/uri.js';
import { SerialQueue } from '../serial-queue.js';
import { addResource } from './add-resource.js';
import { refreshAbove } from './commit/refresh-parents.js';
import type { Ingestor, IngestorParts } from './ingest.js';
import { ingestContext } from './ingest-context.js';
import { removeSkill } from './remove-skill.js';
import { addSkill } from './skill/add-skill.js';

/**
 * Creates an {@link Ingestor} writing to `parts.store`. Jobs on one ingestor run one at a time.
 *
 * @example
 * const ingestor = createIngestor({ store, embedder: new TransformersEmbedder() });
 * const { uris } = await ingestor.addResource('# Notes\n…', { name: 'notes.md', reason: 'onboarding' });
 */
export function createIngestor(parts: IngestorParts): Ingestor {
  const ctx = ingestContext(parts);
  // Two jobs at once would both create a missing parent directory, with different keys.
  const jobs = new SerialQueue();
  return {
    addResource: (input, options = {}) => jobs.run(() => addResource(ctx, input, options)),
    addSkill: (skill, options = {}) => jobs.run(() => addSkill(ctx, skill, options)),
    removeSkill: (name, options = {}) => jobs.run(() => removeSkill(ctx, name, options)),
    refreshParents: (uri, options = {}) =>
      jobs.run(() =>
        refreshAbove(
          ctx,
          parseUri(uri),
          { contextType: contextTypeOf(parseUri(uri)) ?? 'resource', now: Date.now() },
          options.signal,
        ),
      ),
  };
}
