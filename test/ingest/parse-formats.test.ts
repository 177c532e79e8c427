import { describe, expect, it } from 'vitest';
import { detectFormat, extensionOf } from '../../src/ingest/parse/format.js';
import { parseDocument } from '../../src/ingest/parse/parse.js';
import { parseCode } from '../../src/ingest/parse/parse-code.js';
import { parseHtml } from '../../src/ingest/parse/parse-html.js';
import { parseJson } from '../../src/ingest/parse/parse-json.js';
import { parseText } from '../../src/ingest/parse/parse-text.js';

describe('detectFormat', () => {
  it('goes by extension, then MIME type, then content', () => {
    expect(extensionOf('a/b.Tar.GZ')).toBe('gz');
    expect(extensionOf('.env')).toBe('');
    expect(detectFormat('README.MD', '')).toBe('markdown');
    expect(detectFormat('x.htm', '')).toBe('html');
    expect(detectFormat('x.json', 'not json')).toBe('json');
    for (const ext of ['ts', 'js', 'py', 'rs', 'go', 'java', 'c', 'cpp'])
      expect(detectFormat(`x.${ext}`, '')).toBe('code');
    expect(detectFormat('notes.txt', '# not markdown, a txt file')).toBe('text');
    expect(detectFormat('', '', 'text/html; charset=utf-8')).toBe('html');
    expect(detectFormat('', '', 'application/ld+json')).toBe('json');
    expect(detectFormat('', '<!-- c -->\n<!DOCTYPE html><p>x')).toBe('html');
    expect(detectFormat('', ' [1, 2]')).toBe('json');
    expect(detectFormat('', '[a link](http://x.test) and more')).toBe('markdown');
    expect(detectFormat('', 'Title\n=====\n')).toBe('markdown');
    expect(detectFormat('', 'Just some words. #notaheading')).toBe('text');
  });
});

describe('parseHtml', () => {
  const page = `<!doctype html><html><head><title>The Page</title><style>h1 { color: red }</style>
<script>document.write("<h2>fake</h2>")</script></head><body>
<nav><a href="/">Home</a><h2>Menu</h2></nav>
<h1>Welcome &amp; hello</h1><p>This page explains the <b>widget</b>
   system.</p><!-- <h2>commented</h2> -->
<h2>Setup</h2><ul><li>Install it.</li><li>Run it.</li></ul><pre>
# not a heading
  indented()</pre>
<h3 hidden>Hidden</h3><div aria-hidden="true">invisible</div><svg><title>icon</title></svg>
<h2>Table</h2><table><tr><td>a</td><td>b</td></tr></table>
</body></html>`;

  it('keeps visible text under h1–h6 sections, written as Markdown-like text', () => {
    const tree = parseHtml(page);
    expect(tree.title).toBe('The Page');
    expect(tree.sections.map((s) => s.heading)).toEqual(['Welcome & hello']);
    const [welcome] = tree.sections;
    expect(welcome!.text).toBe('# Welcome & hello\n\nThis page explains the widget system.\n');
    expect(welcome!.children.map((c) => c.heading)).toEqual(['Setup', 'Table']);
    expect(welcome!.children[0]!.text).toBe(
      '## Setup\n\n- Install it.\n\n- Run it.\n\n```\n# not a heading\n  indented()\n```\n',
    );
    expect(welcome!.children[1]!.text).toBe('## Table\n\na b\n');
    const all = JSON.stringify(tree);
    for (const dropped of ['color', 'fake', 'Menu', 'Home', 'commented', 'Hidden', 'invisible', 'icon']) {
      expect(all).not.toContain(dropped);
    }
  });

  it('keeps only main content when the page marks it', () => {
    const tree = parseHtml(
      '<header><h1>Site</h1></header><main><h1>Article</h1><p>Body.</p></main><footer>(c)</footer>',
    );
    expect(tree.sections.map((s) => s.heading)).toEqual(['Article']);
    expect(JSON.stringify(tree)).not.toContain('(c)');
    expect(tree.title).toBe('Article');
  });

  it('puts text before the first heading in the lead', () => {
    expect(parseHtml('<p>one</p><p>two</p>')).toMatchObject({ lead: 'one\n\ntwo\n', sections: [] });
  });
});

describe('parseJson', () => {
  it('makes one section per top-level key, each valid JSON on its own', () => {
    const tree = parseJson('{"name":"pkg","scripts":{"test":"vitest"},"n":1}');
    expect(tree.title).toBe('pkg');
    expect(tree.sections.map((s) => s.heading)).toEqual(['name', 'scripts', 'n']);
    expect(JSON.parse(tree.sections[1]!.text)).toEqual({ scripts: { test: 'vitest' } });
    expect(tree.sections[1]!.text).toBe('{\n  "scripts": {\n    "test": "vitest"\n  }\n}\n');
  });

  it('labels array elements by their name or index', () => {
    const tree = parseJson('[{"name":"a"},{"id":7},3]');
    expect(tree.sections.map((s) => s.heading)).toEqual(['[0] a', '[1] 7', '[2]']);
  });

  it('falls back to text for scalars and invalid JSON', () => {
    expect(parseJson('42')).toMatchObject({ format: 'text', sections: [] });
    expect(parseJson('{ // comment\n}')).toMatchObject({ format: 'text', lead: '{ // comment\n}' });
  });
});

describe('parseCode', () => {
  it('splits TypeScript at top-level declarations, with their doc comments', () => {
    const source = [
      "import { x } from 'y';",
      '',
      '/** Parses things. */',
      'export function parse(a: string): number {',
      '  const inner = 1;',
      '  return inner;',
      '}',
      '',
      'export default class Store<T> {}',
      'export const limit = 3;',
      'interface Shape {}',
      'export async function* stream() {}',
      '',
    ].join('\n');
    const tree = parseCode(source, 'a.ts');
    expect(tree.lead).toBe("import { x } from 'y';\n\n");
    expect(tree.sections.map((s) => s.heading)).toEqual([
      'function parse',
      'class Store',
      'const limit',
      'interface Shape',
      'function stream',
    ]);
    expect(tree.sections[0]!.text).toMatch(/^\/\*\* Parses things. \*\/\nexport function parse/);
    expect(tree.lead + tree.sections.map((s) => s.text).join('')).toBe(source);
  });

  it('splits Python, Rust, Go and C declarations', () => {
    const python = parseCode(
      'import os\n\n# Adds.\n@cache\ndef add(a, b):\n    def inner(): pass\n\nclass W:\n    pass\n',
    );
    expect(python.sections.map((s) => s.heading)).toEqual(['def add', 'class W']);
    expect(python.sections[0]!.text.startsWith('# Adds.\n@cache\n')).toBe(true);
    const rust = parseCode(
      'use x;\n#[derive(Debug)]\npub struct P {}\nimpl<T> Trait for P {}\npub(crate) fn go() {}\n',
    );
    expect(rust.sections.map((s) => s.heading)).toEqual(['struct P', 'impl Trait', 'fn go']);
    const go = parseCode('package main\n\nfunc (s *Server) Start() error {\n}\n\ntype Server struct{}\n');
    expect(go.sections.map((s) => s.heading)).toEqual(['func Start', 'type Server']);
    const c = parseCode(
      '#include <stdio.h>\n\nint helper(int);\n\nstatic int main(void)\n{\n  if (x) {}\n}\n',
      'm.c',
    );
    expect(c.sections.map((s) => s.heading)).toEqual(['main()']);
  });

  it('leaves a file without declarations as one lead', () => {
    expect(parseCode('console.log(1);\n', 'x.js')).toMatchObject({ sections: [], lead: 'console.log(1);\n' });
  });
});

describe('parseText and parseDocument', () => {
  it('reads a title-like first line as the title of plain text', () => {
    expect(parseText('Release notes\n\nFixed it.').title).toBe('Release notes');
    expect(parseText('This is a sentence.\n\nMore.').title).toBe('');
    expect(parseText('one long paragraph').sections).toEqual([]);
  });

  it('falls back from the document title to the file name, the first line, then Untitled', () => {
    const doc = (path: string, content: string, format: 'markdown' | 'code' | 'text') => ({
      path,
      content,
      format,
    });
    expect(parseDocument(doc('docs/guide.md', '# Own Title\n', 'markdown')).title).toBe('Own Title');
    expect(parseDocument(doc('docs/guide.md', '## Install\n', 'markdown')).title).toBe('guide');
    expect(parseDocument(doc('src/a.ts', 'export const a = 1;\n', 'code')).title).toBe('a.ts');
    expect(parseDocument(doc('', 'hello there, general.', 'text')).title).toBe('hello there, general.');
    expect(parseDocument(doc('', '   ', 'text')).title).toBe('Untitled');
  });
});
