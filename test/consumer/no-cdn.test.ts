// What the installed package could fetch by default: no CDN anywhere in its scripts, and of the
// Hugging Face hub only the host transformers.js asks when a caller names a hub model (Longship
// switches remote models off for every local one) and documentation links in error messages.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

async function scripts(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(m?js|json)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the installed package', () => {
  const installed = join(inject('consumerRoot'), 'node_modules', 'longship');

  it('names no CDN, and no hub URL that could be fetched by default', async () => {
    const files = [...(await scripts(join(installed, 'dist'))), ...(await scripts(join(installed, 'wasm')))];
    expect(files.some((file) => file.endsWith(join('dist', 'worker', 'entry.js')))).toBe(true);
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const [url] of text.matchAll(
        /(?:https?:)?\/\/[\w.-]*(?:cdn|jsdelivr|unpkg|huggingface\.co|hf\.co)[^\s"'`)<>]*/gi,
      )) {
        found.push(`${file.slice(installed.length + 1)}: ${url}`);
      }
    }
    const allowed = (line: string) =>
      /: https:\/\/huggingface\.co\/$/.test(line) || /: https:\/\/huggingface\.co\/docs\//.test(line);
    expect(found.filter((line) => !allowed(line))).toEqual([]);
    // The one hub host is transformers.js's remoteHost, in the worker script that bundles it (in the
    // chunk beside it that transformers.js is loaded from).
    const hub = found.filter((line) => line.endsWith(': https://huggingface.co/'));
    expect(hub).toHaveLength(1);
    expect(hub[0]).toMatch(/^dist[\\/]worker[\\/](?:entry|chunk-[\w-]+)\.js: /);
  });
});
