import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampText, maxL0Length } from '../../src/context/summarize.js';
import { inlineText } from '../../src/ingest/parse/markdown-inline.js';
import { extractiveSummarizer } from '../../src/ingest/summary/extractive-summarizer.js';
import { firstSentence, isInformative, proseOf, sentencesOf } from '../../src/ingest/summary/prose.js';
import { salientTerms } from '../../src/ingest/summary/salient-terms.js';
import { prose } from './fixtures.js';

const doc = [
  '---',
  'title: Harbour Handbook',
  '---',
  '# Harbour Handbook',
  '',
  'Usage:',
  '',
  'The harbour handbook explains how ships dock, load cargo and leave on the tide.',
  'It is kept by the harbour master.',
  '',
  '```sh',
  'dock --ship longship # never prose',
  '```',
  '',
  '## Docking',
  '',
  '- Approach slowly.',
  '- Throw the **mooring** lines to the crew on the quay before the tide turns.',
  '',
  '## Cargo',
  '',
  '| item | weight |',
  '|------|--------|',
  'Cargo is weighed on the quay, e.g. timber and grain, and logged in the manifest. Then it moves.',
].join('\n');

const input = { title: 'Harbour Handbook', headings: ['Harbour Handbook', 'Docking', 'Cargo'], text: doc };

describe('prose helpers', () => {
  it('keeps only prose: no front matter, code, tables, markup or list markers', () => {
    expect(proseOf(doc)).toEqual([
      {
        heading: 'Harbour Handbook',
        paragraphs: [
          'Usage:',
          'The harbour handbook explains how ships dock, load cargo and leave on the tide. It is kept by the harbour master.',
        ],
      },
      {
        heading: 'Docking',
        paragraphs: [
          'Approach slowly.',
          'Throw the mooring lines to the crew on the quay before the tide turns.',
        ],
      },
      {
        heading: 'Cargo',
        paragraphs: [
          'Cargo is weighed on the quay, e.g. timber and grain, and logged in the manifest. Then it moves.',
        ],
      },
    ]);
  });

  it('reads comments and docstrings as the prose of code', () => {
    const code =
      '#!/usr/bin/env python\n"""Tools for the harbour."""\n# Adds two weights together.\ndef add(a, b):\n    return a + b  # not a comment line\n';
    expect(proseOf(code, 'code')[0]!.paragraphs).toEqual([
      'Tools for the harbour.',
      'Adds two weights together.',
    ]);
    expect(proseOf('/**\n * Parses a URI.\n * @param x the input\n */\n', 'code')[0]!.paragraphs).toEqual([
      'Parses a URI.',
    ]);
    expect(proseOf('{"a": 1}', 'json')).toEqual([]);
  });

  it('splits sentences without breaking abbreviations, and picks the first informative one', () => {
    expect(sentencesOf('It works. See e.g. the docs! Done')).toEqual([
      'It works.',
      'See e.g. the docs!',
      'Done',
    ]);
    expect(sentencesOf('港口很大。船很多！')).toEqual(['港口很大。', '船很多！']);
    expect(isInformative('Install it with:')).toBe(false);
    expect(firstSentence(['Usage:', 'Short. The longship keeps context for agents. More.'])).toBe(
      'The longship keeps context for agents.',
    );
    expect(firstSentence(['Hi.'])).toBe('Hi.');
    expect(inlineText('The **`parseUri`** [function](#api) and snake_case_name')).toBe(
      'The parseUri function and snake_case_name',
    );
  });

  it('ranks salient terms by frequency and spread, stopwords out, deterministically', () => {
    const text = 'Vectors live in USearch.\n\nUSearch runs in WebAssembly.\n\nThe index is fast.';
    expect(salientTerms(text, [], 3)).toEqual(['usearch', 'vectors', 'live']);
    // A word of the title or headings counts double.
    expect(salientTerms(text, ['Index'], 3)).toEqual(['index', 'usearch', 'vectors']);
    expect(salientTerms('the and of with', [])).toEqual([]);
  });
});

describe('extractiveSummarizer with a description', () => {
  it("starts the abstract and the overview from the document's own description", async () => {
    const { l0, l1 } = await extractiveSummarizer.summarize({ ...input, description: 'Where ships dock' });
    expect(l0.startsWith('Harbour Handbook — Where ships dock. Covers: Docking, Cargo.')).toBe(true);
    expect(l1).toContain('# Harbour Handbook\n\nWhere ships dock. ');
    const without = await extractiveSummarizer.summarize(input);
    expect(without.l0).toContain('The harbour handbook explains how ships dock');
  });
});

describe('clampText', () => {
  it('cuts at a word and adds an ellipsis', () => {
    expect(clampText('The quick brown fox jumps', 16)).toBe('The quick brown…');
    expect(clampText('short', 16)).toBe('short');
    expect(clampText('a'.repeat(20), 10)).toBe(`${'a'.repeat(9)}…`);
  });

  it('never exceeds the limit and never cuts inside a word', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 80 }),
        fc.integer({ min: 16, max: 300 }),
        (words, max) => {
          const text = words.join(' ');
          const clamped = clampText(text, max);
          expect(clamped.length).toBeLessThanOrEqual(max);
          if (clamped.endsWith('…')) expect(words).toContain(clamped.slice(0, -1).split(' ').at(-1));
          else expect(clamped).toBe(text);
        },
      ),
    );
  });
});

describe('extractiveSummarizer', () => {
  it('writes an L0 with the title and the first informative sentence, within 256 characters', async () => {
    const { l0 } = await extractiveSummarizer.summarize(input);
    expect(l0).toBe(
      'Harbour Handbook — The harbour handbook explains how ships dock, load cargo and leave on the tide. Covers: Docking, Cargo.',
    );
    expect(extractiveSummarizer.kind).toBe('extractive');
  });

  it('cuts a long L0 at a word, with an ellipsis', async () => {
    const long = { title: 'Long', headings: [], text: `${'Words follow words endlessly '.repeat(30)}.` };
    const { l0 } = await extractiveSummarizer.summarize(long);
    expect(l0.length).toBeLessThanOrEqual(maxL0Length);
    expect(l0.startsWith('Long — Words follow')).toBe(true);
    expect(l0).toMatch(/ (?:Words|follow|words|endlessly)…$/);
  });

  it('writes an L1 with the outline, leading sentences and salient terms', async () => {
    const { l1 } = await extractiveSummarizer.summarize(input);
    expect(l1).toContain('# Harbour Handbook');
    expect(l1).toContain('- Docking: Throw the mooring lines to the crew on the quay before the tide turns.');
    expect(l1).toContain(
      '- Cargo: Cargo is weighed on the quay, e.g. timber and grain, and logged in the manifest.',
    );
    expect(l1).toMatch(/## Key terms\n.*harbour/);
    expect(l1).not.toContain('dock --ship');
    expect(l1.split(/\s+/).length).toBeLessThan(400);
  });

  it('summarises a directory bottom-up from its children', async () => {
    const children = [
      { title: 'Docking', l0: 'Docking — Ships approach slowly and throw lines to the crew.' },
      { title: 'Cargo', l0: 'Cargo — Cargo is weighed and logged. Covers: Weights.' },
    ];
    const { l0, l1 } = await extractiveSummarizer.summarize({
      title: 'Harbour',
      headings: [],
      text: '',
      children,
    });
    expect(l0).toBe('Harbour — Ships approach slowly and throw lines to the crew. Covers: Docking, Cargo.');
    expect(l1).toContain(
      '## Contents\n- Docking: Ships approach slowly and throw lines to the crew.\n- Cargo: Cargo is weighed and logged.',
    );
  });

  it('keeps L1 to a few hundred words however many sections there are', async () => {
    const headings = Array.from({ length: 200 }, (_, i) => `Section ${i}`);
    const text = headings.map((h, i) => `## ${h}\n\n${prose(`s${i}`, 2)}\n`).join('\n');
    const { l1 } = await extractiveSummarizer.summarize({ title: 'Big', headings, text });
    expect(l1.split(/\s+/).length).toBeLessThan(400);
    expect(l1).toMatch(/- … and \d+ more/);
  });

  it('falls back to the outline when there is no prose, and is deterministic', async () => {
    const json = {
      title: 'pkg',
      headings: ['name', 'scripts'],
      text: '{"name":"pkg"}',
      format: 'json' as const,
    };
    expect((await extractiveSummarizer.summarize(json)).l0).toBe('pkg — covers name, scripts.');
    const first = await extractiveSummarizer.summarize(input);
    expect(await extractiveSummarizer.summarize({ ...input })).toEqual(first);
  });

  it('keeps any L0 within 256 characters and containing a short title', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Z][a-z]{2,20}$/),
        fc.string({ maxLength: 2000 }),
        async (title, text) => {
          const { l0 } = await extractiveSummarizer.summarize({ title, headings: [], text });
          expect(l0.length).toBeLessThanOrEqual(maxL0Length);
          expect(l0.toLowerCase()).toContain(title.toLowerCase());
        },
      ),
      { numRuns: 200 },
    );
  });
});
