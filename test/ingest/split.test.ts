import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/ingest/parse/parse-markdown.js';
import { parseText } from '../../src/ingest/parse/parse-text.js';
import { estimateTokens, type PlannedNode, splitDocument, splitText } from '../../src/ingest/parse/split.js';
import { prose } from './fixtures.js';

const paths = (nodes: readonly PlannedNode[]) => nodes.map((n) => `${n.kind}:${n.relativePath.join('/')}`);
const files = (nodes: readonly PlannedNode[]) => nodes.filter((n) => n.kind === 'file');

/** A guide of about 4,000 tokens: a big "Usage" section with subsections, and small sections around it. */
const guide = [
  '# Guide',
  '',
  prose('intro', 5),
  '',
  '## Install',
  '',
  prose('install', 40),
  '',
  '## Usage',
  '',
  prose('usage', 20),
  '',
  '### Basics',
  '',
  prose('basics', 50),
  '',
  '### Advanced',
  '',
  prose('advanced', 50),
  '',
  '### Tips',
  '',
  prose('tips', 3),
  '',
  '## FAQ',
  '',
  prose('faq', 4),
  '',
  '## License',
  '',
  'Apache-2.0.',
  '',
].join('\n');

describe('estimateTokens', () => {
  it('counts about four characters per token, and one per CJK character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('Hello, world!')).toBe(4);
    expect(estimateTokens('日本語のテキスト')).toBe(8);
    expect(estimateTokens('abcd日本')).toBe(3);
  });
});

describe('splitDocument', () => {
  it('keeps a document under maxTokens as one file holding all of it', () => {
    const source = '# Small\n\nShort text.\n\n## Part\n\nMore.\n';
    const nodes = splitDocument(parseMarkdown(source));
    expect(nodes).toEqual([
      { relativePath: [], kind: 'file', title: 'Small', headings: ['Small', 'Part'], content: source },
    ]);
  });

  it('turns a long document into a directory of sections, recursing into large ones', () => {
    expect(estimateTokens(guide)).toBeGreaterThan(2048);
    const nodes = splitDocument(parseMarkdown(guide));
    expect(paths(nodes)).toEqual([
      'dir:',
      'file:01-guide',
      'dir:02-usage',
      'file:02-usage/01-usage',
      'file:02-usage/02-advanced',
      'file:03-faq',
    ]);
    expect(nodes[0]).toMatchObject({ kind: 'dir', title: 'Guide' });
    // The intro (small) merged with Install, Basics with Usage's own text, Tips with Advanced, FAQ with License.
    expect(nodes.map((n) => n.title)).toEqual([
      'Guide',
      'Guide; Install',
      'Usage',
      'Usage; Basics',
      'Advanced; Tips',
      'FAQ; License',
    ]);
    for (const file of files(nodes)) expect(estimateTokens(file.content!)).toBeLessThan(2048);
    // Nothing lost, nothing repeated: the files in order are the document.
    expect(
      files(nodes)
        .map((n) => n.content)
        .join(''),
    ).toBe(guide);
  });

  it('merges small sections with their neighbours, in order and within one parent', () => {
    const small = Array.from({ length: 12 }, (_, i) => `## Part ${i}\n\n${prose(`p${i}`, 12)}\n\n`).join('');
    const nodes = splitDocument(parseMarkdown(small));
    const parts = files(nodes);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBeLessThan(12);
    expect(parts.map((n) => n.content).join('')).toBe(small);
    expect(parts.flatMap((n) => n.headings)).toEqual(Array.from({ length: 12 }, (_, i) => `Part ${i}`));
  });

  it('honours maxTokens and mergeBelow', () => {
    // Each section is about 7 tokens, the whole about 21.
    const source = '## A\n\nalpha words here.\n\n## B\n\nbeta words here..\n\n## C\n\ngamma words here.\n';
    expect(paths(splitDocument(parseMarkdown(source), { maxTokens: 16, mergeBelow: 0 }))).toEqual([
      'dir:',
      'file:01-a',
      'file:02-b',
      'file:03-c',
    ]);
    // A and B merge (14 < 16); adding C would reach maxTokens.
    expect(paths(splitDocument(parseMarkdown(source), { maxTokens: 16, mergeBelow: 100 }))).toEqual([
      'dir:',
      'file:01-a',
      'file:02-c',
    ]);
    expect(paths(splitDocument(parseMarkdown(source), { maxTokens: 100 }))).toEqual(['file:']);
    expect(() => splitDocument(parseMarkdown(source), { maxTokens: 0 })).toThrow(/maxTokens/);
  });

  it('never splits at # lines inside code fences', () => {
    const fenced = `## Script\n\n\`\`\`bash\n${Array.from({ length: 400 }, (_, i) => `# step ${i}\necho ${i}`).join('\n')}\n\`\`\`\n`;
    const nodes = splitDocument(parseMarkdown(fenced));
    expect(nodes.flatMap((n) => n.headings).every((h) => h === 'Script')).toBe(true);
    expect(
      files(nodes)
        .map((n) => n.content)
        .join(''),
    ).toBe(fenced);
  });

  it('cuts text with no headings at paragraphs into numbered parts', () => {
    const text = Array.from({ length: 30 }, (_, i) => prose(`para${i}`, 6)).join('\n\n');
    const nodes = splitDocument(parseText(text));
    expect(nodes[0]!.kind).toBe('dir');
    const parts = files(nodes);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]!.relativePath[0]).toMatch(/^01-.*part-1-of-\d+$/);
    expect(parts.map((n) => n.content).join('')).toBe(text);
    for (const part of parts) expect(part.content!.endsWith('\n\n') || part === parts.at(-1)).toBe(true);
  });

  it('titles a part by its first caption-like line, never by a running header', () => {
    const page = (i: number) =>
      `Table of Contents\n\n${prose(`para${i}`, 40)}\n\nConsolidated Balance Sheet ${i}\n\n${prose(`cell${i}`, 30)}\n\n`;
    const text = Array.from({ length: 12 }, (_, i) => page(i)).join('');
    const parts = files(splitDocument(parseText(text), { maxTokens: 256, mergeBelow: 0 }));
    expect(parts.length).toBeGreaterThan(3);
    expect(parts[0]!.title).toMatch(/\(part 1 of \d+\)$/);
    for (const part of parts.slice(1)) {
      expect(part.title).not.toBe('Table of Contents');
      if (!/\(part \d+ of \d+\)$/.test(part.title))
        expect(part.title).toMatch(/^Consolidated Balance Sheet \d+$/);
    }
    expect(parts.slice(1).some((part) => part.title.startsWith('Consolidated Balance Sheet'))).toBe(true);
  });

  it('keeps a caption with the table after it when a cut falls between them', () => {
    const table = `| Grade | Weight |\n| --- | --- |\n${Array.from({ length: 12 }, (_, i) => `| Item ${i} | ${i}% |`).join('\n')}\n\n`;
    for (let filler = 10; filler <= 200; filler += 5) {
      const text = `${prose('intro', filler)}\n\nTable 3: Grading weights\n\n${table}${prose('after', 20)}\n`;
      const pieces = splitText(text, 160);
      expect(pieces.join('')).toBe(text);
      const withTable = pieces.find((piece) => piece.includes('| Grade | Weight |'))!;
      expect(withTable, `filler ${filler}`).toContain('Table 3: Grading weights');
    }
  });

  it('cuts one enormous line between words, and between characters when it has no spaces', () => {
    for (const line of [prose('line', 600), 'x'.repeat(20_000), '😀'.repeat(9000)]) {
      const pieces = splitText(line, 512);
      expect(pieces.join('')).toBe(line);
      for (const piece of pieces) expect(estimateTokens(piece)).toBeLessThan(512);
      expect(pieces.every((p) => !/[\uD800-\uDBFF]$/.test(p))).toBe(true);
    }
  });

  it('gives siblings unique, ordered names even when headings repeat or have no letters', () => {
    const source = ['Same', 'Same', '!!!', ''].map((h) => `## ${h}\n\n${prose('x', 40)}\n\n`).join('');
    const names = splitDocument(parseMarkdown(source))
      .slice(1)
      .map((n) => n.relativePath.join('/'));
    expect(names).toEqual(['01-same', '02-same', '03-section', '04-section']);
  });
});

describe('splitDocument on any Markdown', () => {
  const block = fc.oneof(
    fc.integer({ min: 1, max: 4 }).map((level) => `${'#'.repeat(level)} Heading ${level}\n`),
    fc.integer({ min: 1, max: 30 }).map((n) => `${prose('p', n)}\n\n`),
    fc.constant('```\n# fenced\n```\n'),
    fc.constant('Setext\n---\n'),
    fc.constant('\n'),
  );

  it('loses nothing: the files, in order, are the document', () => {
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 40 }),
        fc.integer({ min: 20, max: 600 }),
        (blocks, maxTokens) => {
          const source = blocks.join('');
          const nodes = splitDocument(parseMarkdown(source), { maxTokens, mergeBelow: maxTokens / 4 });
          expect(
            files(nodes)
              .map((n) => n.content)
              .join(''),
          ).toBe(source);
          // Parents come before their children, and siblings have unique names.
          const seen = new Set<string>(['']);
          for (const node of nodes.slice(1)) {
            expect(seen.has(node.relativePath.slice(0, -1).join('/'))).toBe(true);
            expect(seen.has(node.relativePath.join('/'))).toBe(false);
            seen.add(node.relativePath.join('/'));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
