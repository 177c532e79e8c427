import { describe, expect, it } from 'vitest';
import type { Summarizer, SummaryInput } from '../../src/context/summarize.js';
import { isVikingUri, parentOf, parseUri } from '../../src/context/uri.js';
import { readInput } from '../../src/ingest/input.js';
import { type PreviousNode, planResource, type ResourceNode } from '../../src/ingest/plan.js';
import { prose, rejectsWith } from './fixtures.js';

const target = parseUri('viking://resources/docs');

/** A guide large enough to become a directory: intro (small), Install, Usage and FAQ (each over 512 tokens). */
const guide = [
  '# Guide',
  prose('intro', 5),
  '## Install',
  prose('install', 60),
  '## Usage',
  prose('usage', 80),
  '## FAQ',
  prose('faq', 45),
].join('\n\n');

async function plan(text: string, name: string, options: Parameters<typeof planResource>[1] = {}) {
  const { documents } = await readInput(text, { name });
  return planResource(documents, { target, ...options });
}

/** What the store would hold after writing `nodes`, as `previous` for the next ingestion. */
const stored = (nodes: readonly ResourceNode[]) =>
  new Map<string, PreviousNode>(
    nodes.map((n) => [n.uri, { contentHash: n.contentHash, l0: n.l0, l1: n.l1, summaryKind: n.summaryKind }]),
  );

/** A summariser that counts its calls and answers like an LLM would. */
function fakeLlm(): Summarizer & { calls: SummaryInput[] } {
  const calls: SummaryInput[] = [];
  return {
    kind: 'llm',
    calls,
    async summarize(input) {
      calls.push(input);
      return { l0: `LLM: ${input.title} ${'long '.repeat(100)}`, l1: `LLM overview of ${input.title}` };
    },
  };
}

describe('planResource', () => {
  it('plans a small document as one file under the target, with summaries and a hash', async () => {
    const { nodes, removed } = await plan('# Notes\n\nThe notes say something useful here.\n', 'notes.md');
    expect(removed).toEqual([]);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      uri: 'viking://resources/docs/notes.md',
      relativePath: ['notes.md'],
      kind: 'file',
      title: 'Notes',
      format: 'markdown',
      source: 'notes.md',
      l0: 'Notes — The notes say something useful here.',
      summaryKind: 'extractive',
      change: 'added',
    });
    expect(nodes[0]!.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('plans a large document as a directory, parents first, every URI canonical', async () => {
    const { nodes } = await plan(guide, 'guide.md');
    expect(nodes.map((n) => n.uri)).toEqual([
      'viking://resources/docs/guide.md',
      'viking://resources/docs/guide.md/01-guide',
      'viking://resources/docs/guide.md/02-usage',
      'viking://resources/docs/guide.md/03-faq',
    ]);
    const seen = new Set<string>([target]);
    for (const node of nodes) {
      expect(isVikingUri(node.uri)).toBe(true);
      expect(seen.has(parentOf(node.uri)!)).toBe(true);
      seen.add(node.uri);
    }
    expect(nodes[0]).toMatchObject({ kind: 'dir', title: 'Guide' });
    expect(nodes[0]!.content).toBeUndefined();
  });

  it('summarises directories bottom-up from their children', async () => {
    const llm = fakeLlm();
    const { nodes } = await plan(guide, 'guide.md', { summarizer: llm });
    expect(llm.calls.map((c) => c.title)).toEqual(['FAQ', 'Usage', 'Guide; Install', 'Guide']);
    expect(llm.calls.at(-1)!.children!.map((c) => c.title)).toEqual(['Guide; Install', 'Usage', 'FAQ']);
    expect(llm.calls.at(-1)!.children![0]!.l0).toBe(nodes[1]!.l0);
    for (const node of nodes) {
      expect(node.summaryKind).toBe('llm');
      // An LLM's overlong L0 is cut to 256 characters at a word.
      expect(node.l0.length).toBeLessThanOrEqual(256);
      expect(node.l0.endsWith('long…')).toBe(true);
    }
  });

  it('re-plans an unchanged document as unchanged, without asking the summariser again', async () => {
    const first = await plan(guide, 'guide.md');
    const llm = fakeLlm();
    const again = await plan(guide, 'guide.md', {
      previous: stored(first.nodes),
      summarizer: { ...llm, kind: 'extractive' },
    });
    expect(again.nodes.map((n) => n.change)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(llm.calls).toEqual([]);
    expect(again.nodes).toEqual(first.nodes.map((n) => ({ ...n, change: 'unchanged' })));
  });

  it('re-plans a changed document: only the changed file and its ancestors change', async () => {
    const first = await plan(guide, 'guide.md');
    const edited = guide.replace('faq', 'questions');
    const llm = fakeLlm();
    const again = await plan(edited, 'guide.md', {
      previous: stored(first.nodes),
      summarizer: { ...llm, kind: 'extractive' },
    });
    expect(again.nodes.map((n) => [n.relativePath.join('/'), n.change])).toEqual([
      ['guide.md', 'changed'],
      ['guide.md/01-guide', 'unchanged'],
      ['guide.md/02-usage', 'unchanged'],
      ['guide.md/03-faq', 'changed'],
    ]);
    expect(llm.calls.map((c) => c.title)).toEqual(['FAQ', 'Guide']);
    expect(again.removed).toEqual([]);
  });

  it('lists what disappeared, and points moved content at its old URI', async () => {
    const first = await plan(guide, 'guide.md');
    const shorter = guide.slice(guide.indexOf('## Usage'));
    const again = await plan(shorter, 'guide.md', { previous: stored(first.nodes) });
    const usage = again.nodes.find((n) => n.title === 'Usage')!;
    expect(usage.relativePath).toEqual(['guide.md', '01-usage']);
    expect(usage.sameContentAs).toBe('viking://resources/docs/guide.md/02-usage');
    expect(again.removed).toContain('viking://resources/docs/guide.md/03-faq');
  });

  it('keeps a document at the same URI when it grows from a file into a directory', async () => {
    const small = await plan('# Guide\n\nShort.\n', 'guide.md');
    const big = await plan(guide, 'guide.md', { previous: stored(small.nodes) });
    expect(small.nodes[0]!.uri).toBe(big.nodes[0]!.uri);
    expect(big.nodes[0]).toMatchObject({ kind: 'dir', change: 'changed' });
  });

  it('plans a folder: directories from paths, safe and unique names, summaries of folders', async () => {
    const { documents } = await readInput(
      [
        { path: 'docs/intro.md', content: '# Intro\n\nThe intro explains the whole project briefly.\n' },
        { path: 'docs/what?.md', content: 'A question mark in a file name.' },
        { path: 'docs', content: 'a file named like the folder' },
        {
          path: 'src/main.ts',
          content: '/** Starts the program for the user. */\nexport function main() {}\n',
        },
      ],
      { name: 'project' },
    );
    const { nodes } = await planResource(documents, { target });
    expect(nodes.map((n) => `${n.kind}:${n.relativePath.join('/')}`)).toEqual([
      'dir:project',
      'dir:project/docs',
      'dir:project/src',
      'file:project/docs/intro.md',
      'file:project/docs/what-.md',
      'file:project/docs-2',
      'file:project/src/main.ts',
    ]);
    const src = nodes.find((n) => n.relativePath.join('/') === 'project/src')!;
    expect(src.l0).toBe('src — Starts the program for the user. Covers: main.ts.');
    expect(nodes[0]!.l1).toContain('## Contents\n- docs:');
  });

  it("starts a document's abstract from its front matter description, whole or split", async () => {
    const page =
      '---\ntitle: npm-uninstall\ndescription: Remove a package\n---\n\n### Synopsis\n\nnpm uninstall x\n';
    const [file] = (await plan(page, 'npm-uninstall.md')).nodes;
    expect(file!.l0.startsWith('npm-uninstall — Remove a package. Covers: Synopsis.')).toBe(true);
    const split = (await plan(`---\ndescription: How to use it\n---\n${guide}`, 'guide.md')).nodes;
    expect(split[0]!.kind).toBe('dir');
    expect(split[0]!.l0.startsWith('Guide — How to use it.')).toBe(true);
    // Only the document's own node: its sections keep their own first sentences.
    expect(split.filter((n) => n.l0.includes('How to use it'))).toHaveLength(1);
  });

  it('starts a one-file document’s abstract from what its front says it is, and records it', async () => {
    const cover =
      'FORM 8-K\n\nCURRENT REPORT\n\nDate of Report: July 1, 2022\n\nGamma Holdings Ltd\n\nGamma appoints a chief executive.\n';
    const [file] = (await plan(cover, 'report.md')).nodes;
    expect(file!.identity).toBe('Gamma Holdings Ltd · Form 8-K, current report · July 1 2022');
    expect(file!.l0.startsWith('report — Gamma Holdings Ltd · Form 8-K, current report · July 1 2022.')).toBe(
      true,
    );
    // A split document's directory is searched by its summaries: it carries its identity in its place.
    const split = (await plan(`${cover}\n${guide}`, 'report.md')).nodes;
    expect(split[0]!.kind).toBe('dir');
    expect(split[0]!.identity).toBe('Gamma Holdings Ltd · Form 8-K, current report · July 1 2022');
    expect(split[0]!.l0).not.toContain('Form 8-K');
    expect(split.filter((n) => n.identity !== undefined)).toHaveLength(1);
  });

  it('names an unnamed document after its title', async () => {
    const { nodes } = await plan('# Trip Report\n\nWe sailed north for many days.\n', '');
    expect(nodes[0]!.uri).toBe('viking://resources/docs/trip-report');
  });

  it('defaults the target to viking://resources and stops when aborted', async () => {
    const { documents } = await readInput('text here', { name: 'a.txt' });
    expect((await planResource(documents)).nodes[0]!.uri).toBe('viking://resources/a.txt');
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(() => planResource(documents, { signal: controller.signal }), 'ABORTED');
  });
});
