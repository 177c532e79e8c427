import { describe, expect, it } from 'vitest';
import { parseUri } from '../../src/context/uri.js';
import { estimateTokens } from '../../src/embed/chunk.js';
import { buildBatch, embeddingTexts } from '../../src/ingest/commit/write-batch.js';
import { readInput } from '../../src/ingest/input.js';
import { type PreviousNode, planResource, type ResourceNode } from '../../src/ingest/plan.js';
import { prose } from './fixtures.js';

const target = parseUri('viking://resources/docs');

/** A page with front matter, large enough to be split into its sections. */
const page = (description: string) =>
  [
    `---\ntitle: npm-uninstall\ndescription: ${description}\n---`,
    '## Synopsis',
    prose('synopsis', 15),
    '## Configuration',
    prose('config', 10),
    '### save',
    prose('save', 15),
  ].join('\n\n');

async function plan(text: string, previous?: ReadonlyMap<string, PreviousNode>) {
  const { documents } = await readInput(text, { name: 'npm-uninstall.md' });
  return (
    await planResource(documents, {
      target,
      maxTokens: 300,
      mergeBelow: 0,
      ...(previous ? { previous } : {}),
    })
  ).nodes;
}

const fileTitled = (nodes: readonly ResourceNode[], title: string) =>
  nodes.find((n) => n.kind === 'file' && n.title === title)!;

describe('where a chunk sits in its document', () => {
  it('gives each file of a document its title, description and the sections above it', async () => {
    const nodes = await plan(page('Remove a package'));
    expect(nodes[0]!.kind).toBe('dir');
    expect(fileTitled(nodes, 'Synopsis').context).toBe('npm-uninstall: Remove a package > Synopsis');
    expect(fileTitled(nodes, 'save').context).toBe('npm-uninstall: Remove a package > Configuration > save');
    const whole = (await readInput('---\ndescription: Short\n---\nOne line.\n', { name: 'a.md' })).documents;
    const [file] = (await planResource(whole, { target })).nodes;
    expect(file!.context).toBe('a: Short');
  });

  it('embeds every chunk with that context, each still within the window', async () => {
    const save = fileTitled(await plan(page('Remove a package')), 'save');
    const texts = embeddingTexts(save, { maxTokens: 40 });
    expect(texts.length).toBeGreaterThan(2);
    for (const text of texts) {
      expect(text.startsWith('npm-uninstall: Remove a package > Configuration > save\n')).toBe(true);
      expect(estimateTokens(text)).toBeLessThanOrEqual(41);
    }
    // A node without a context (a file written directly) embeds its content alone.
    const { context: _context, ...bare } = save;
    expect(embeddingTexts(bare, { maxTokens: 40 })[0]!.startsWith('### save')).toBe(true);
  });

  it('indexes the context among the headings, for BM25', async () => {
    const save = fileTitled(await plan(page('Remove a package')), 'save');
    const batch = await buildBatch(async () => 1, [{ node: save }], [[]], [], {
      contextType: 'resource',
      now: 0,
    });
    expect(batch.putPostings![0]!.headings).toContain(
      'npm-uninstall: Remove a package > Configuration > save',
    );
  });

  it('re-embeds unchanged sections when the description they carry changes', async () => {
    const first = await plan(page('Remove a package'));
    const previous = new Map<string, PreviousNode>(
      first.map((n) => [
        n.uri,
        { contentHash: n.contentHash, l0: n.l0, l1: n.l1, summaryKind: n.summaryKind },
      ]),
    );
    expect(fileTitled(await plan(page('Remove a package'), previous), 'save').change).toBe('unchanged');
    expect(fileTitled(await plan(page('Uninstall a package'), previous), 'save').change).toBe('changed');
  });
});
