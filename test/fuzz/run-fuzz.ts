// The parser fuzz run (docs/internals/model-test.md): random and mutated documents of every format, each
// parsed directly and through addResource() in a child process under a deadline. Every outcome must
// be a result or a typed LongshipError, never a hang; fast-check shrinks a failing input.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { ModelSwitches } from '../model/switches.js';
import { FuzzChild } from './fuzz-child.js';
import type { FuzzInput } from './fuzz-input.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** Real documents of each format from the repository, to mutate. */
function realDocuments(): { name: string; content: string }[] {
  const docs = readdirSync(`${root}docs`)
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`);
  const code = ['src/ingest/parse/parse-markdown.ts', 'src/ingest/parse/split.ts', 'src/context/uri.ts'];
  const pages = ['demo/index.html', 'examples/no-bundler/index.html'];
  const json = ['package.json', 'tsconfig.json', 'biome.json'];
  return [...docs, ...code, ...pages, ...json].map((path) => ({
    name: path.slice(path.lastIndexOf('/') + 1),
    content: read(path),
  }));
}

const names = ['doc.md', 'page.html', 'data.json', 'main.ts', 'script.py', 'notes.txt', 'README', 'x.htm'];
const pieces: Record<string, readonly string[]> = {
  markdown: [
    '# ',
    '## ',
    '###### ',
    '#',
    '\n',
    '\n\n',
    '- ',
    '1. ',
    '```',
    '~~~',
    '> ',
    '|a|b|\n|-|-|\n',
    '---\n',
    '===\n',
    '[x](y)',
    '![i](j)',
    '**',
    '_',
    '`',
    '<div>',
    '\t',
    '    ',
    '\r\n',
    'word ',
    '\\',
  ],
  html: [
    '<p>',
    '</p>',
    '<h1>',
    '</h1>',
    '<h6>',
    '<script>',
    '</script>',
    '<style>',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '<title>',
    '</title>',
    '&amp;',
    '&#x41;',
    '&#',
    '<table><tr><td>',
    '<br/>',
    '<a href="',
    '">',
    '<',
    '>',
    'text ',
    '<!DOCTYPE html>',
    '<pre>',
    '<svg>',
  ],
  json: [
    '{',
    '}',
    '[',
    ']',
    '"',
    '":',
    ',',
    'null',
    'true',
    '1e309',
    '-0',
    '"\\u0000"',
    '"\\ud800"',
    '"title"',
    '"name"',
    ' ',
    '\n',
  ],
  code: [
    'function f() {',
    '}',
    'class A {',
    'export const x = ',
    '//',
    '/*',
    '*/',
    'def g():',
    '    ',
    '"',
    "'",
    '`',
    '${',
    'import x from "y";\n',
    '\n',
    'async ',
    '=> {',
    '#',
  ],
};

const namesOf: Record<string, readonly string[]> = {
  markdown: ['doc.md', 'README'],
  html: ['page.html', 'x.htm'],
  json: ['data.json'],
  code: ['main.ts', 'script.py'],
};

const fragments = (kind: string) =>
  fc
    .array(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pieces[kind]!) }, fc.string({ maxLength: 8 })),
      {
        maxLength: 400,
        size: 'medium',
      },
    )
    .map((p) => p.join(''));

/** A real document, cut, duplicated, spliced with fragments or repeated, and kept under 64 KB. */
function mutated(documents: readonly { name: string; content: string }[]) {
  const kinds = Object.keys(pieces);
  return fc
    .record({
      document: fc.constantFrom(...documents),
      edits: fc.array(
        fc.record({
          how: fc.constantFrom('delete', 'duplicate', 'insert', 'truncate', 'flip', 'repeat'),
          at: fc.nat(),
          length: fc.nat({ max: 400 }),
          text: fc.constantFrom(...kinds).chain(fragments),
          times: fc.integer({ min: 2, max: 40 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      rename: fc.option(fc.constantFrom(...names), { nil: undefined }),
    })
    .map(({ document, edits, rename }) => {
      let text = document.content;
      for (const edit of edits) {
        const at = text.length === 0 ? 0 : edit.at % text.length;
        const slice = text.slice(at, at + edit.length);
        if (edit.how === 'delete') text = text.slice(0, at) + text.slice(at + edit.length);
        else if (edit.how === 'duplicate') text = text.slice(0, at) + slice + text.slice(at);
        else if (edit.how === 'insert') text = text.slice(0, at) + edit.text + text.slice(at);
        else if (edit.how === 'truncate') text = text.slice(0, at);
        else if (edit.how === 'flip')
          text = text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 1 || 32) + text.slice(at + 1);
        else text = text.slice(0, at) + slice.repeat(edit.times) + text.slice(at);
        text = text.slice(0, 65_536);
      }
      return { name: rename ?? document.name, content: text };
    });
}

/** Nesting past what a recursive parser or JSON.stringify takes (issue 24, item 8). */
const deepJson = fc
  .integer({ min: 2000, max: 20_000 })
  .chain((depth) =>
    fc.constantFrom(
      { name: 'deep.json', content: '['.repeat(depth) + ']'.repeat(depth) },
      { name: 'deep.json', content: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` },
    ),
  );

/** Nested past 1,000 levels (a mutation may repeat brackets so): issue 24's item 8, behind deepJson. */
function deep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) depth--;
    if (depth > 1000) return true;
  }
  return false;
}

export function fuzzInputs(switches: ModelSwitches): fc.Arbitrary<Omit<FuzzInput, 'id'>> {
  // Mostly under a name of its format, so that its parser reads it; now and then under another.
  const name = (kind: string) =>
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...namesOf[kind]!) }, fc.constantFrom(...names));
  const generated = fc.oneof(
    ...Object.keys(pieces).map((kind) => fc.record({ name: name(kind), content: fragments(kind) })),
    fc.record({ name: name('json'), content: fc.json().map((j) => j.slice(0, 4096)) }),
    fc.record({
      name: fc.constantFrom(...names),
      content: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
      ),
    }),
  );
  const bytes = fc.record({
    name: fc.constantFrom(...names),
    content: fc.constant(''),
    bytes: fc.array(fc.nat({ max: 255 }), { maxLength: 600 }),
  });
  const inputs = fc.oneof(
    { weight: 5, arbitrary: generated },
    { weight: 4, arbitrary: mutated(realDocuments()) },
    { weight: 1, arbitrary: bytes },
    ...(switches.deepJson ? [{ weight: 1, arbitrary: deepJson }] : []),
  );
  return switches.deepJson ? inputs : inputs.filter((input) => !deep(input.content));
}

export interface FuzzOptions {
  seed: number;
  inputs: number;
  /** Most milliseconds one input may take, both paths together. */
  deadlineMs: number;
  switches: ModelSwitches;
  log?: (line: string) => void;
}

/** Throws fast-check's report (seed, shrunk input) on the first untyped error, death or hang. */
export async function runFuzz(options: FuzzOptions): Promise<{ inputs: number; slowestMs: number }> {
  const child = new FuzzChild();
  let id = 0;
  let slowestMs = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fuzzInputs(options.switches), async (input) => {
        const sent: FuzzInput = {
          ...input,
          id: ++id,
          verify: id % 50 === 0,
        };
        const started = performance.now();
        const answer = await child.run(sent, options.deadlineMs);
        slowestMs = Math.max(slowestMs, performance.now() - started);
        if (answer === 'hang') throw new Error(`no answer within ${options.deadlineMs} ms`);
        if (answer === 'died') throw new Error('the child process died');
        for (const path of ['direct', 'public'] as const) {
          const ended = answer[path];
          if ('untyped' in ended) throw new Error(`${path}: ${ended.untyped}`);
        }
        if (options.log && id % 1_000 === 0) options.log(`fuzz: ${id} inputs`);
      }),
      { seed: options.seed, numRuns: options.inputs },
    );
  } finally {
    child.stop();
  }
  return { inputs: id, slowestMs };
}
