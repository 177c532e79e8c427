// add_resource takes text, never a location: content that happens to name a file on the server's disk
// is indexed as that text, so an agent learns nothing of the disk from whether it went in.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { addResource } from '../../src/tools/add-resource.js';
import { checkToolInput } from '../../src/tools/tool-input.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const folder = await mkdtemp(join(tmpdir(), 'longship-add-resource-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('add_resource', () => {
  it('indexes content naming a file on disk as its text, as it does a path naming nothing', async () => {
    const secret = join(folder, 'secret.md');
    await writeFile(secret, 'The launch code is 0000.');
    const longship = await openLongship({ store: 'memory', embedder: bagOfWordsEmbedder() });
    try {
      for (const [content, name] of [
        [secret, 'exists.md'],
        [join(folder, 'missing.md'), 'missing.md'],
      ] as const) {
        const output = await addResource.run(longship, checkToolInput(addResource, { content, name }), {});
        expect(output.added).toBe(1);
        expect(await longship.read(output.uris[0]!)).toBe(content);
      }
    } finally {
      await longship.close();
    }
  });
});
