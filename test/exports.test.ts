// The package's entry points and the names each exports (docs/guide/package.md). A change here is an
// API change: make it on purpose, in this list and in the entry file.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

/** Each entry point: its subpath in package.json `exports`, its source file, its exported values. */
const entries: Record<string, { source: string; values: string[] }> = {
  '.': {
    source: 'src/index.ts',
    values: [
      'LongshipError',
      'OpenAiCompatibleLlm',
      'RemoteEmbedder',
      'RemoteReranker',
      'TransformersEmbedder',
      'bundledModel',
      'connectLongship',
      'createLongship',
      'findDefaults',
      'functionEmbedder',
      'llmReranker',
      'llmSummarizer',
      'openFileStore',
      'openIdbStore',
      'openLongship',
      'openMemoryStore',
      'parseSkillMd',
      'transfer',
    ],
  },
  './client': { source: 'src/exports/client.ts', values: ['connectLongship', 'createLongship', 'transfer'] },
  './worker': { source: 'src/exports/worker.ts', values: ['createLongshipHost', 'exposeLongship'] },
  './vector': {
    source: 'src/exports/vector.ts',
    values: ['allocateIndexBytes', 'createVectorIndex', 'distance', 'loadUsearch', 'loadVectorIndex'],
  },
  './lexical': { source: 'src/exports/lexical.ts', values: ['createLexicalIndex', 'loadLexicalIndex'] },
  './uri': {
    source: 'src/exports/uri.ts',
    values: [
      'basename',
      'contextTypeOf',
      'isVikingUri',
      'isWithin',
      'join',
      'parentOf',
      'parseUri',
      'relativeTo',
      'roots',
      'segments',
    ],
  },
  './testing': { source: 'src/exports/testing.ts', values: ['changeLogContract', 'storeContract'] },
  './ai': { source: 'src/exports/ai.ts', values: ['longshipToolNames', 'longshipTools'] },
  './mcp': {
    source: 'src/exports/mcp.ts',
    values: ['createMcpFetchHandler', 'createMcpServer', 'serveMcpStdio'],
  },
};

const repo = new URL('../', import.meta.url);

it.each(Object.entries(entries))('%s exports exactly its values', async (_, { source, values }) => {
  const module = await import(new URL(source, repo).href);
  expect(Object.keys(module).sort()).toEqual(values);
});

it('names in package.json every entry point, each built from its source file', async () => {
  const manifest = JSON.parse(await readFile(new URL('package.json', repo), 'utf8'));
  const code = Object.entries(manifest.exports as Record<string, string | { types: string; default: string }>)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => [subpath, target]);
  expect(Object.fromEntries(code)).toEqual(
    Object.fromEntries(
      Object.entries(entries).map(([subpath, { source }]) => {
        const built = source.replace(/^src\//, './dist/').replace(/\.ts$/, '');
        return [subpath, { types: `${built}.d.ts`, default: `${built}.js` }];
      }),
    ),
  );
  // The worker script createLongship() starts, as a file (the host is `./worker`).
  expect(manifest.exports['./worker-script.js']).toBe('./dist/worker/entry.js');
  expect(manifest.types).toBe(manifest.exports['.'].types);
});
