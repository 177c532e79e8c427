import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConvertedDocument } from '../../src/ingest/convert/converted.js';
import { convertPdf } from '../../src/ingest/convert/pdf.js';
import { makeReportPdf } from '../fixtures/documents/make-pdf.js';
import { bundleWorker } from './workerd-bundle.js';

// The `deno` npm package's launcher: it runs the binary that package installed, offline.
const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('convertPdf in the other runtimes reads a report as Node does', () => {
  let report: Uint8Array;
  let inNode: ConvertedDocument;

  beforeAll(async () => {
    report = await makeReportPdf();
    inNode = await convertPdf(report, { name: 'report.pdf', maxPages: 100 });
  });

  it('in Deno, with read access alone', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'longship-pdf-'));
    try {
      const file = join(folder, 'report.pdf');
      await writeFile(file, report);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          denoLauncher,
          'run',
          '--sloppy-imports',
          '--allow-read',
          '--no-prompt',
          'test/edge/pdf-deno-main.ts',
          file,
        ],
        { cwd: root, timeout: 50_000 },
      );
      const output = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        runtime: string;
        converted: ConvertedDocument;
      };
      expect(output.runtime).toMatch(/^deno 2\./);
      expect(output.converted).toEqual(inNode);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('in workerd, which has no DOMMatrix', async () => {
    const worker = fileURLToPath(new URL('./pdf-workerd-worker.ts', import.meta.url));
    const miniflare = new Miniflare({
      compatibilityDate: '2026-04-01',
      modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) }],
    });
    try {
      const response = await miniflare.dispatchFetch('http://localhost/', { method: 'POST', body: report });
      const body = (await response.json()) as { converted?: ConvertedDocument; error?: string };
      expect(body.error).toBeUndefined();
      expect(body.converted).toEqual(inNode);
    } finally {
      await miniflare.dispose();
    }
  });
});
