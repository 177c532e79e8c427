import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface SizeFigure {
  what: string;
  raw: number;
  gzip: number;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

function figure(what: string, bytes: Uint8Array): SizeFigure {
  return { what, raw: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength };
}

/** Sizes of what Longship ships for its index: the wasm, its emscripten glue, and the bundled JS API. */
export async function shippedSizes(): Promise<SizeFigure[]> {
  const wasm = readFileSync(`${root}wasm/dist/usearch.wasm`);
  const glue = readFileSync(`${root}wasm/dist/usearch.js`);
  const figures = [
    figure('wasm/dist/usearch.wasm', wasm),
    figure('wasm/dist/usearch.js (emscripten glue)', glue),
    figure('wasm + glue', Buffer.concat([wasm, glue])),
  ];
  try {
    const bundled = await build({
      entryPoints: [`${root}src/index.ts`],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
      // The neutral platform reads no package.json main fields by default, so comlink did not resolve.
      mainFields: ['module', 'main'],
      external: ['node:*', '@huggingface/transformers'],
    });
    const js = bundled.outputFiles[0]!.contents;
    figures.push(figure('src/index.ts bundled + minified with esbuild (glue included, wasm not)', js));
  } catch (error) {
    figures.push({
      what: `JS bundle failed: ${String(error).split('\n')[0]}`,
      raw: Number.NaN,
      gzip: Number.NaN,
    });
  }
  return figures;
}
