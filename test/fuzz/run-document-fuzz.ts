// The document fuzz run (docs/internals/model-test.md): mutated and random PDF and Office files,
// each read directly and through addResource() in a child process under a deadline. Every outcome
// must be a result or a typed LongshipError, never a hang, and the child's memory must stay under a
// bound; fast-check shrinks a failing case to its recipe.

import fc from 'fast-check';
import { documentKindOf } from '../../src/ingest/convert/convert.js';
import { readingDeadline } from '../../src/ingest/convert/pdf.js';
import type { ModelSwitches } from '../model/switches.js';
import { type DocumentFixture, documentFixtures } from './document-fixtures.js';
import { bytesOfCase, describeCase, documentCases } from './document-inputs.js';
import { FuzzChild } from './fuzz-child.js';
import type { DocumentAnswer, DocumentInput, Ended } from './fuzz-input.js';

/**
 * The child's V8 heap limit, in MB: a runaway heap kills the child (a failure) before it takes the
 * machine's memory. Above the RSS bound, so that the bound is what a test normally meets.
 */
const HEAP_LIMIT_MB = 2048;

export interface DocumentFuzzOptions {
  seed: number;
  inputs: number;
  /**
   * Most milliseconds one input may take, both paths together; a PDF may take its reading deadline
   * more on each path (readingDeadline(), by which the converter ends a slow repair itself).
   */
  deadlineMs: number;
  /** Most bytes the child's resident set may ever reach (its `maxRSS`). */
  maxRssBytes: number;
  /** fast-check's path of a failure, with its seed: replays that one case (and its shrinking). */
  path?: string;
  /** Off, `largeDamagedPdfs` cuts mutated PDFs at 64 KB (`pdfStrayRejections` is the child's). */
  switches: ModelSwitches;
  log?: (line: string) => void;
}

export interface DocumentFuzzReport {
  inputs: number;
  /**
   * How many inputs ended each way, by the converter that read them: `pdf: CORRUPT_INPUT`,
   * `docx: ok`; where addResource() ended otherwise than readInput(), both (`… / public …`).
   */
  outcomes: Map<string, number>;
  slowest: { ms: number; input: string };
  /** The most the child's resident set reached, and its V8 heap after an input. */
  peakRssBytes: number;
  peakHeapBytes: number;
}

const MB = 2 ** 20;
/** Where damaged PDFs are cut with the `largeDamagedPdfs` switch off (they once took pdf.js past the deadline). */
const MAX_PDF_BYTES = 64 * 1024;
const endOf = (ended: Ended) => ('ok' in ended ? 'ok' : 'typed' in ended ? ended.typed : 'untyped');

/** Reads `input` in the child; throws on anything but a result or a typed error within the bounds. */
async function check(
  child: FuzzChild<DocumentInput, DocumentAnswer>,
  input: DocumentInput,
  options: DocumentFuzzOptions,
): Promise<{ answer: DocumentAnswer; ms: number }> {
  const started = performance.now();
  const isPdf = documentKindOf(input.name, input.bytes) === 'pdf';
  const deadlineMs = options.deadlineMs + (isPdf ? 2 * readingDeadline(input.bytes.length) : 0);
  const answer = await child.run(input, deadlineMs);
  const ms = performance.now() - started;
  if (answer === 'hang') throw new Error(`no answer within ${deadlineMs} ms`);
  if (answer === 'died') throw new Error('the child process died');
  if (answer.maxRssBytes > options.maxRssBytes) {
    // A fresh child for the next try, so that shrinking measures each case on its own.
    child.stop();
    throw new Error(`the child's resident set reached ${(answer.maxRssBytes / MB).toFixed(0)} MB`);
  }
  for (const path of ['direct', 'public'] as const) {
    const ended = answer[path];
    if ('untyped' in ended) throw new Error(`${path}: ${ended.untyped}`);
  }
  return { answer, ms };
}

/** Throws fast-check's report (seed, shrunk case) on an untyped error, a death, a hang or too much memory. */
export async function runDocumentFuzz(options: DocumentFuzzOptions): Promise<DocumentFuzzReport> {
  const fixtures: DocumentFixture[] = await documentFixtures();
  const child = new FuzzChild<DocumentInput, DocumentAnswer>({
    script: 'test/fuzz/document-child.ts',
    nodeFlags: [`--max-old-space-size=${HEAP_LIMIT_MB}`],
  });
  const report: DocumentFuzzReport = {
    inputs: 0,
    outcomes: new Map(),
    slowest: { ms: 0, input: '' },
    peakRssBytes: 0,
    peakHeapBytes: 0,
  };
  let id = 0;
  try {
    // The fixtures as they are, first: the child loads every converter before the timing starts.
    await child.start();
    for (const fixture of fixtures) {
      await check(child, { id: ++id, ...fixture }, options).catch((error: Error) => {
        throw new Error(`the fixture ${fixture.name} as it is: ${error.message}`);
      });
    }
    await fc.assert(
      fc.asyncProperty(documentCases(fixtures), async (recipe) => {
        const maxPdfBytes = options.switches.largeDamagedPdfs ? undefined : MAX_PDF_BYTES;
        const bytes = bytesOfCase(recipe, fixtures, maxPdfBytes);
        const input = { id: ++id, name: recipe.name, bytes, verify: id % 50 === 0 };
        const { answer, ms } = await check(child, input, options);
        if (ms > report.slowest.ms) report.slowest = { ms, input: describeCase(recipe) };
        report.peakRssBytes = Math.max(report.peakRssBytes, answer.maxRssBytes);
        report.peakHeapBytes = Math.max(report.peakHeapBytes, answer.heapUsedBytes);
        const [direct, publicEnd] = [endOf(answer.direct), endOf(answer.public)];
        const kind = documentKindOf(recipe.name, bytes) ?? 'text';
        const key = `${kind}: ${direct}${publicEnd === direct ? '' : ` / public ${publicEnd}`}`;
        report.outcomes.set(key, (report.outcomes.get(key) ?? 0) + 1);
        if (answer.strayRejections > 0) {
          const stray = 'pdf.js rejections no one handled (pdfStrayRejections)';
          report.outcomes.set(stray, (report.outcomes.get(stray) ?? 0) + answer.strayRejections);
        }
        report.inputs++;
        if (options.log && report.inputs % 500 === 0) options.log(`document fuzz: ${report.inputs} inputs`);
      }),
      {
        seed: options.seed,
        numRuns: options.inputs,
        ...(options.path === undefined ? {} : { path: options.path }),
      },
    );
  } finally {
    child.stop();
  }
  return report;
}
