// What the document fuzz run feeds the converters (docs/internals/model-test.md): the fixtures
// mutated byte by byte; an Office fixture's one part (its XML) mutated and zipped anew, which a
// mutation of the zip's deflated bytes seldom reaches; PDF syntax and random bytes behind a
// `%PDF-` header; random bytes behind a zip's signatures; each under a name that routes it to a
// converter. A case is a recipe (fixture, edits), so that fast-check shrinks and prints the
// recipe, not bytes.

import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { documentKindOf } from '../../src/ingest/convert/convert.js';
import type { DocumentFixture } from './document-fixtures.js';

/** The names that route bytes to each converter (a `%PDF-` header routes to PDF whatever the name). */
export const DOCUMENT_NAMES = ['fuzz.pdf', 'fuzz.docx', 'fuzz.pptx', 'fuzz.xlsx'] as const;

export type EditKind =
  | 'truncate'
  | 'flip'
  | 'overwrite'
  | 'delete'
  | 'duplicate'
  | 'insert'
  | 'repeat'
  | 'splice'
  | 'token';

/** One byte-level edit; `at` is a position as a fraction of the length, in 2^-32ths. */
export interface Edit {
  how: EditKind;
  at: number;
  length: number;
  /** What `overwrite` and `insert` put in. */
  bytes: Uint8Array;
  /** What `flip` xors with. */
  xor: number;
  /** How many copies `repeat` makes. */
  times: number;
  /**
   * For `splice`: which fixture's tail follows this one's head; for `token`: which of the format's
   * syntax tokens is inserted (an index, modulo their count).
   */
  other: number;
}

export type DocumentCase =
  | { from: 'fixture'; fixture: string; name: string; edits: Edit[] }
  /** `part` picks one of the zip's parts (modulo their count); `store` zips it anew uncompressed. */
  | { from: 'part'; fixture: string; name: string; part: number; edits: Edit[]; store: boolean }
  | { from: 'pdf syntax'; name: string; tokens: string[] }
  | { from: 'random'; name: string; header: 'pdf' | 'zip' | 'zip end' | 'none'; bytes: Uint8Array };

/** Past this, a mutated document is cut: bigger inputs cost time and find nothing new. */
const MAX_BYTES = 1024 * 1024;

const ascii = (text: string) => new TextEncoder().encode(text);

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

function applyEdit(
  bytes: Uint8Array,
  edit: Edit,
  fixtures: readonly DocumentFixture[],
  tokens: readonly Uint8Array[],
): Uint8Array {
  const at = Math.floor((edit.at / 2 ** 32) * bytes.length);
  const end = Math.min(bytes.length, at + edit.length);
  const head = bytes.subarray(0, at);
  const range = bytes.subarray(at, end);
  const tail = bytes.subarray(end);
  switch (edit.how) {
    case 'truncate':
      return bytes.slice(0, at);
    case 'flip': {
      const copy = bytes.slice();
      if (at < copy.length) copy[at]! ^= edit.xor;
      return copy;
    }
    case 'overwrite': {
      const copy = bytes.slice();
      copy.set(edit.bytes.subarray(0, copy.length - at), at);
      return copy;
    }
    case 'delete':
      return concat(head, tail);
    case 'duplicate':
      return concat(head, range, range, tail);
    case 'insert':
      return concat(head, edit.bytes, bytes.subarray(at));
    case 'repeat':
      return concat(head, ...Array.from({ length: edit.times }, () => range), tail);
    case 'splice': {
      const other = fixtures[edit.other % fixtures.length]!.bytes;
      return concat(head, other.subarray(Math.floor((edit.at / 2 ** 32) * other.length)));
    }
    case 'token':
      return concat(head, tokens[edit.other % tokens.length]!, bytes.subarray(at));
  }
}

function applyEdits(
  bytes: Uint8Array,
  edits: readonly Edit[],
  fixtures: readonly DocumentFixture[],
  tokens: readonly Uint8Array[],
): Uint8Array {
  let out = bytes;
  for (const edit of edits) out = applyEdit(out, edit, fixtures, tokens).subarray(0, MAX_BYTES);
  return out;
}

const HEADERS = {
  pdf: ascii('%PDF-1.7\n'),
  zip: new Uint8Array([0x50, 0x4b, 0x03, 0x04]),
  none: new Uint8Array(),
};

/**
 * The bytes a case stands for; those read as a PDF cut at `maxPdfBytes` (see the `largeDamagedPdfs`
 * switch, docs/internals/model-test.md).
 */
export function bytesOfCase(
  input: DocumentCase,
  fixtures: readonly DocumentFixture[],
  maxPdfBytes = Number.POSITIVE_INFINITY,
): Uint8Array {
  const bytes = caseBytes(input, fixtures);
  return documentKindOf(input.name, bytes) === 'pdf' ? bytes.subarray(0, maxPdfBytes) : bytes;
}

function caseBytes(input: DocumentCase, fixtures: readonly DocumentFixture[]): Uint8Array {
  if (input.from === 'pdf syntax') return ascii(`%PDF-1.7\n${input.tokens.join('')}`);
  if (input.from === 'random') {
    // An end of central directory whose counts and offsets are random: they send the reader astray.
    if (input.header === 'zip end') {
      const end = new Uint8Array(22);
      end.set([0x50, 0x4b, 5, 6]);
      end.set(input.bytes.subarray(0, 18), 4);
      return concat(HEADERS.zip, input.bytes, end);
    }
    return concat(HEADERS[input.header], input.bytes);
  }
  const { bytes } = fixtures.find((f) => f.name === input.fixture)!;
  const pdf = input.fixture.endsWith('.pdf');
  const tokens = pdf ? PDF_BYTES : OOXML_BYTES;
  if (input.from === 'fixture') return applyEdits(bytes, input.edits, fixtures, tokens);
  const parts = unzipSync(bytes);
  const names = Object.keys(parts).sort();
  const name = names[input.part % names.length]!;
  parts[name] = applyEdits(parts[name]!, input.edits, fixtures, tokens).slice();
  return zipSync(parts, { level: input.store ? 0 : 1 });
}

/** What a case is, in a few words, for the report of the slowest. */
export function describeCase(input: DocumentCase): string {
  if (input.from === 'fixture' || input.from === 'part') {
    const edits = input.edits.map((e) => `${e.how}@${(e.at / 2 ** 32).toFixed(3)}`).join(', ');
    const part = input.from === 'part' ? ` part ${input.part}` : '';
    return `${input.fixture}${part} as ${input.name}: ${edits}`;
  }
  if (input.from === 'pdf syntax') return `${input.tokens.length} PDF tokens as ${input.name}`;
  return `${input.bytes.length} random bytes after a ${input.header} header as ${input.name}`;
}

/** PDF syntax, from the header to the trailer, for pdf.js's parser and its repair of broken files. */
const PDF_TOKENS = [
  '1 0 obj\n',
  '2 0 obj\n',
  '3 0 obj\n',
  'endobj\n',
  '<<',
  '>>',
  '[',
  ']',
  '/Type /Catalog',
  '/Type /Pages',
  '/Type /Page',
  '/Pages 2 0 R',
  '/Kids [3 0 R]',
  '/Kids [2 0 R]',
  '/Parent 2 0 R',
  '/Count 1',
  '/Count 99999999',
  '/Contents 4 0 R',
  '/MediaBox [0 0 612 792]',
  '/Resources << /Font << /F1 5 0 R >> >>',
  '/Length 44',
  '/Length 4 0 R',
  '/Filter /FlateDecode',
  '/Filter /LZWDecode',
  '/Outlines 6 0 R',
  '/First 7 0 R /Last 7 0 R',
  '/Next 7 0 R',
  '/Title (t)',
  '/Dest [3 0 R /XYZ 0 0 0]',
  'stream\n',
  '\nendstream\n',
  'BT /F1 12 Tf 72 712 Td (Hello) Tj ET',
  '(',
  ')',
  '\\',
  '<4142>',
  ' ',
  '\n',
  '0',
  '-1',
  '1e308',
  'xref\n0 4\n',
  '0000000000 65535 f \n',
  '0000000009 00000 n \n',
  'trailer\n',
  '/Root 1 0 R',
  '/Size 8',
  '/Prev 9',
  '/Encrypt << /Filter /Standard /V 1 /R 2 >>',
  'startxref\n',
  '9\n',
  '%%EOF\n',
];

/**
 * Office Open XML that the converters act on: spans, merges and cell references far out, deep
 * groups, a sheet or slide listed again, relationship targets that leave the package, entities.
 */
const OOXML_TOKENS = [
  '<w:p><w:r><w:t>x</w:t></w:r></w:p>',
  '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>H</w:t></w:r></w:p>',
  '<w:pStyle w:val="Caption"/>',
  '<w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl>',
  '<w:tbl>',
  '</w:tbl>',
  '<w:tr>',
  '<w:tc>',
  '<w:gridSpan w:val="1000000"/>',
  '<w:vMerge w:val="restart"/>',
  '<w:vMerge/>',
  '<w:numPr><w:ilvl w:val="8"/><w:numId w:val="1"/></w:numPr>',
  '<w:footnoteReference w:id="1"/>',
  '<w:br/>',
  '<p:grpSp>',
  '</p:grpSp>',
  '<p:sp><p:txBody><a:p><a:r><a:t>x</a:t></a:r></a:p></p:txBody></p:sp>',
  '<p:ph type="title"/>',
  '<a:tbl><a:tr><a:tc hMerge="1"/><a:tc vMerge="1"/></a:tr></a:tbl>',
  '<a:br/>',
  '<a:pPr lvl="99"><a:buAutoNum type="arabicPeriod"/></a:pPr>',
  '<p:sldId id="300" r:id="rId2"/>',
  '<c r="XFD1048576"><v>1</v></c>',
  '<c r="A1" t="s"><v>99999999</v></c>',
  '<c r="B2" s="1"><v>1e308</v></c>',
  '<c t="inlineStr"><is><t>x</t></is></c>',
  '<row r="1048576">',
  '</row>',
  '<sheet name="x" sheetId="9" r:id="rId1"/>',
  '<si><t>x</t></si>',
  '<numFmt numFmtId="200" formatCode="yyyy-mm-dd"/>',
  'r:id="rId1"',
  'Target="../../../../x"',
  'Target="/"',
  'TargetMode="External"',
  '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
  '&b;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '&#0;',
  '&#xD800;',
  '<',
  '>',
  '"',
  '/>',
  'xmlns:w="x"',
];

const PDF_BYTES = PDF_TOKENS.map(ascii);
const OOXML_BYTES = OOXML_TOKENS.map(ascii);

export function documentCases(fixtures: readonly DocumentFixture[]): fc.Arbitrary<DocumentCase> {
  const edit = fc.record({
    how: fc.constantFrom<EditKind>(
      'truncate',
      'flip',
      'overwrite',
      'delete',
      'duplicate',
      'insert',
      'repeat',
      'splice',
      'token',
    ),
    at: fc.nat({ max: 2 ** 32 - 1 }),
    length: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 8192 })),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
    xor: fc.integer({ min: 1, max: 255 }),
    times: fc.integer({ min: 2, max: 64 }),
    other: fc.nat(),
  });
  // Mostly under its own name; now and then under another converter's.
  const mutated = fc.constantFrom(...fixtures).chain((fixture) =>
    fc.record({
      from: fc.constant('fixture' as const),
      fixture: fc.constant(fixture.name),
      name: fc.oneof({ weight: 5, arbitrary: fc.constant(fixture.name) }, fc.constantFrom(...DOCUMENT_NAMES)),
      edits: fc.array(edit, { minLength: 1, maxLength: 5 }),
    }),
  );
  const office = fixtures.filter((f) => f.bytes[0] === 0x50 && f.bytes[1] === 0x4b);
  const part = fc.constantFrom(...office).chain((fixture) =>
    fc.record({
      from: fc.constant('part' as const),
      fixture: fc.constant(fixture.name),
      name: fc.oneof({ weight: 5, arbitrary: fc.constant(fixture.name) }, fc.constantFrom(...DOCUMENT_NAMES)),
      part: fc.nat(),
      edits: fc.array(edit, { minLength: 1, maxLength: 5 }),
      store: fc.boolean(),
    }),
  );
  const pdfSyntax = fc.record({
    from: fc.constant('pdf syntax' as const),
    name: fc.constantFrom(...DOCUMENT_NAMES),
    tokens: fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PDF_TOKENS) }, fc.string()), {
      maxLength: 300,
    }),
  });
  const random = fc.record({
    from: fc.constant('random' as const),
    name: fc.constantFrom(...DOCUMENT_NAMES),
    header: fc.constantFrom('pdf' as const, 'zip' as const, 'zip end' as const, 'none' as const),
    bytes: fc.uint8Array({ maxLength: 4096 }),
  });
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    { weight: 6, arbitrary: part },
    { weight: 2, arbitrary: pdfSyntax },
    { weight: 2, arbitrary: random },
  );
}
