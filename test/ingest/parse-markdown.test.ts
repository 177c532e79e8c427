import { describe, expect, it } from 'vitest';
import { type DocumentTree, renderSection, type Section } from '../../src/ingest/parse/document.js';
import { parseMarkdown } from '../../src/ingest/parse/parse-markdown.js';

/** Headings as `level:text`, depth-first, to compare trees at a glance. */
function outline(sections: readonly Section[]): string[] {
  return sections.flatMap((s) => [`${s.level}:${s.heading}`, ...outline(s.children)]);
}

const whole = (tree: DocumentTree) => tree.lead + tree.sections.map(renderSection).join('');

describe('parseMarkdown', () => {
  it('nests ATX headings by level and keeps each section its own text', () => {
    const source = '# Guide\nIntro.\n## Install\nnpm i\n### From source\ngit clone\n## Usage\nRun it.\n';
    const tree = parseMarkdown(source);
    expect(tree.title).toBe('Guide');
    expect(outline(tree.sections)).toEqual(['1:Guide', '2:Install', '3:From source', '2:Usage']);
    const install = tree.sections[0]!.children[0]!;
    expect(install.text).toBe('## Install\nnpm i\n');
    expect(renderSection(install)).toBe('## Install\nnpm i\n### From source\ngit clone\n');
  });

  it('gives back the source byte for byte when its pieces are joined', () => {
    const source =
      '---\ntitle: T\n---\nPreamble\r\n\r\nSetext\n======\n\ntext\n\n## A ##\n```\n# x\n```\nend';
    expect(whole(parseMarkdown(source))).toBe(source);
  });

  it("reads the front matter's description, on one line or as a block", () => {
    const one = parseMarkdown(
      "---\ntitle: npm-uninstall\ndescription: 'Remove a package'\n---\n### Synopsis\n",
    );
    expect(one.title).toBe('npm-uninstall');
    expect(one.description).toBe('Remove a package');
    const block = parseMarkdown('---\ndescription: >\n  Folded over\n  two lines\ntags: [a]\n---\n# T\n');
    expect(block.description).toBe('Folded over two lines');
    expect(parseMarkdown('---\ndescription:\n---\n# T\n').description).toBeUndefined();
    expect(parseMarkdown('# T\ndescription: not front matter\n').description).toBeUndefined();
  });

  it('reads setext headings, including multi-line ones', () => {
    const tree = parseMarkdown('Title here\n==========\n\nText.\n\nSub part\nover two lines\n---\nMore.\n');
    expect(outline(tree.sections)).toEqual(['1:Title here', '2:Sub part over two lines']);
  });

  it('does not take # lines in code fences, indented code or HTML blocks for headings', () => {
    const source = [
      '# Real',
      '````bash',
      '# a shell comment',
      '```',
      '## still code: a shorter fence does not close a longer one',
      '~~~~',
      '## still code: nor does one of the other character',
      '````',
      '~~~',
      '# tilde fence',
      '~~~',
      '',
      '    # indented code',
      '',
      '<!--',
      '# commented out',
      '-->',
      '<pre>',
      '# preformatted',
      '</pre>',
      '## Also real',
    ].join('\n');
    expect(outline(parseMarkdown(source).sections)).toEqual(['1:Real', '2:Also real']);
  });

  it('runs an unclosed fence to the end of the document', () => {
    expect(outline(parseMarkdown('# A\n```\n# B\n').sections)).toEqual(['1:A']);
  });

  it('tells setext underlines from rules and list items', () => {
    const source = 'Para\n\n---\n\n- item\n---\n\n> quote\n---\n\n***\n';
    expect(parseMarkdown(source).sections).toEqual([]);
  });

  it('strips closing hashes and inline markup from headings, and needs a space after #', () => {
    const tree = parseMarkdown('## The `parse` **API** ##\n#hashtag\n####### seven\n#\n');
    expect(outline(tree.sections)).toEqual(['2:The parse API', '1:']);
  });

  it('takes the title from front matter before the first heading', () => {
    const tree = parseMarkdown('---\nlayout: post\ntitle: "Front Title"\n---\n# Heading\n');
    expect(tree.title).toBe('Front Title');
    expect(tree.lead).toBe('---\nlayout: post\ntitle: "Front Title"\n---\n');
    // `---` in front matter is not a setext underline or a section.
    expect(outline(tree.sections)).toEqual(['1:Heading']);
  });

  it('has no title when the first heading is not level 1', () => {
    expect(parseMarkdown('## Two\n# One\n').title).toBe('');
  });

  it('puts jumps in level directly under the nearest higher heading', () => {
    const tree = parseMarkdown('## A\n#### deep\n## B\n');
    expect(tree.sections.map((s) => s.children.map((c) => c.heading))).toEqual([['deep'], []]);
  });
});
