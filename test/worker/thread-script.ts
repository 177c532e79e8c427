// A worker-thread script bundled for Node from a TypeScript entry, as the worker tests start it.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles `entry` into the ES module `outfile`. transformers.js and its native runtime stay
 * external: a thread that loads them resolves them from the node_modules above `outfile`.
 */
export async function bundleThreadScript(entry: URL, outfile: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    external: ['@huggingface/transformers', 'onnxruntime-node'],
  });
}
