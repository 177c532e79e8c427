// The document fuzz run (docs/internals/model-test.md), bounded: seeded mutations of the PDF and
// Office fixtures and random bytes under their names, each converted directly and through
// addResource() in a child process under a deadline and a memory bound. A failure prints
// fast-check's report: the seed, the path and the shrunk recipe. LONGSHIP_DOC_FUZZ_SEED=<n> replays
// a seed, with LONGSHIP_DOC_FUZZ_PATH=<path> only the failing case; LONGSHIP_DOC_FUZZ_INPUTS=<n>
// runs longer.

import { expect, it } from 'vitest';
import { envSwitches } from '../model/switches.js';
import { runDocumentFuzz } from './run-document-fuzz.js';

const seed = Number(process.env.LONGSHIP_DOC_FUZZ_SEED ?? 35);
const INPUTS = Number(process.env.LONGSHIP_DOC_FUZZ_INPUTS ?? 3000);
const MB = 2 ** 20;

it(
  `reads every damaged document to a result or a typed error, ${INPUTS} inputs`,
  async () => {
    const started = performance.now();
    const report = await runDocumentFuzz({
      seed,
      inputs: INPUTS,
      // Generous on a shared 2-core machine, where the slowest input of the default run takes 3 s
      // (a damaged PDF that pdf.js repairs slowly, see the largeDamagedPdfs switch); a PDF gets its
      // reading deadline more on each path (run-document-fuzz.ts).
      deadlineMs: 20_000,
      // The child's resident set peaked at 520 to 760 MB in runs of 3,000 to 20,000 inputs.
      maxRssBytes: 1536 * MB,
      switches: envSwitches(),
      ...(process.env.LONGSHIP_DOC_FUZZ_PATH ? { path: process.env.LONGSHIP_DOC_FUZZ_PATH } : {}),
      // Progress only on a long run.
      ...(process.env.LONGSHIP_DOC_FUZZ_INPUTS ? { log: (line: string) => console.log(line) } : {}),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      [
        `document fuzz: ${report.inputs} inputs in ${seconds.toFixed(1)} s (seed ${seed})`,
        `  slowest ${report.slowest.ms.toFixed(0)} ms: ${report.slowest.input}`,
        `  child peak RSS ${(report.peakRssBytes / MB).toFixed(0)} MB, heap after an input at most ${(report.peakHeapBytes / MB).toFixed(0)} MB`,
        ...[...report.outcomes].sort().map(([end, n]) => `  ${end}: ${n}`),
      ].join('\n'),
    );
    expect(report.inputs).toBe(INPUTS);
    // The cases reach each converter's conversions and refusals, and the other typed refusals.
    const ends = [...report.outcomes.keys()];
    for (const kind of ['pdf', 'docx', 'pptx', 'xlsx']) {
      for (const end of ['ok', 'CORRUPT_INPUT']) expect(ends).toContain(`${kind}: ${end}`);
    }
    for (const end of ['ENCRYPTED_INPUT', 'UNSUPPORTED_INPUT']) {
      expect(ends.some((key) => key.endsWith(`: ${end}`))).toBe(true);
    }
  },
  60_000 + INPUTS * 1_000,
);
