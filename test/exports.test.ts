import { expect, it } from 'vitest';
import * as longship from '../src/index.js';

// The public surface is exactly what src/index.ts re-exports; a change here is an API change.
it('exports exactly the public API', () => {
  expect(Object.keys(longship).sort()).toEqual([
    'LongshipError',
    'OpenAiCompatibleLlm',
    'RemoteEmbedder',
    'RemoteReranker',
    'TransformersEmbedder',
    'basename',
    'bundledModel',
    'chunkText',
    'connectLongship',
    'contextTypeOf',
    'createLexicalIndex',
    'createLongship',
    'createLongshipHost',
    'createVectorIndex',
    'distance',
    'estimateTokens',
    'exposeLongship',
    'findDefaults',
    'functionEmbedder',
    'isVikingUri',
    'isWithin',
    'join',
    'llmReranker',
    'llmSummarizer',
    'loadLexicalIndex',
    'loadUsearch',
    'loadVectorIndex',
    'openIdbStore',
    'openLongship',
    'openMemoryStore',
    'parentOf',
    'parseUri',
    'relativeTo',
    'roots',
    'segments',
    'transfer',
  ]);
});
