// The packed package itself: what a user's install gets.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

describe('the installed package', () => {
  const root = inject('consumerRoot');
  const installed = join(root, 'node_modules', 'longship');

  it('has its entry points, the worker, the WASM and the bundled model', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    for (const entry of Object.values(manifest.exports) as Array<string | { default: string }>) {
      const file = typeof entry === 'string' ? entry : entry.default;
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'wasm/dist/usearch.wasm'))).toBe(true);
    expect(existsSync(join(installed, 'model/use-lite/onnx/model_quantized.onnx'))).toBe(true);
  });
});
