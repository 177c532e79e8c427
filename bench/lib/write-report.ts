import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes a benchmark's JSON at `jsonPath` and its markdown table beside it, as `.md`. */
export function writeReport(jsonPath: string, report: unknown, markdown: string): void {
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(jsonPath.replace(/\.json$/, '.md'), markdown);
  console.log(`wrote ${jsonPath} and its .md`);
}
