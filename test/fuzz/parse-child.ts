// The parser fuzz run's child process (`node --import tsx`): takes one input at a time over IPC,
// parses it directly (parseDocument, then splitDocument) and through the public ingestion path
// (addResource on a Longship in memory), and answers how each ended. A hang is the parent's to see.

import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { readInput } from '../../src/ingest/input.js';
import type { Section } from '../../src/ingest/parse/document.js';
import { parseDocument } from '../../src/ingest/parse/parse.js';
import { parseCode } from '../../src/ingest/parse/parse-code.js';
import { parseHtml } from '../../src/ingest/parse/parse-html.js';
import { parseJson } from '../../src/ingest/parse/parse-json.js';
import { parseMarkdown } from '../../src/ingest/parse/parse-markdown.js';
import { parseText } from '../../src/ingest/parse/parse-text.js';
import { splitDocument } from '../../src/ingest/parse/split.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import type { Ended, FuzzAnswer, FuzzInput } from './fuzz-input.js';

const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });

function ended(error: unknown): Ended {
  if (error instanceof LongshipError) return { typed: error.code };
  const e = error as Error;
  return { untyped: `${e?.name}: ${e?.message}\n${e?.stack ?? ''}`.slice(0, 2000) };
}

const textOf = (sections: readonly Section[]): string =>
  sections.map((s) => s.text + textOf(s.children)).join('');

/** readInput's checks, the parser for the detected format, and the split, as ingestion runs them. */
async function direct(input: FuzzInput): Promise<Ended> {
  try {
    const { documents } = await readInput(input.bytes ? new Uint8Array(input.bytes) : input.content, {
      name: input.name,
    });
    for (const document of documents) {
      // Every parser on every input, whatever its format, then the one ingestion picks.
      parseMarkdown(document.content);
      parseHtml(document.content);
      parseJson(document.content);
      parseCode(document.content, document.path);
      parseText(document.content);
      const tree = parseDocument(document);
      // docs: a Markdown tree's texts, in order, are the document byte for byte.
      if (tree.format === 'markdown' && tree.lead + textOf(tree.sections) !== document.content)
        return { untyped: 'parseMarkdown lost or changed text' };
      splitDocument(tree, { maxTokens: 64, mergeBelow: 16 });
    }
    return { ok: true };
  } catch (error) {
    return ended(error);
  }
}

/** addResource() and its job, then verify(): the store must stay consistent whatever was refused. */
async function publicPath(input: FuzzInput): Promise<Ended> {
  try {
    const content = input.bytes ? new Uint8Array(input.bytes) : input.content;
    await longship.addResource(content, { name: input.name, maxTokens: 64, mergeBelow: 16 });
    return { ok: true };
  } catch (error) {
    return ended(error);
  } finally {
    await longship.waitProcessed();
  }
}

process.on('message', async (input: FuzzInput) => {
  const answer: FuzzAnswer = { id: input.id, direct: await direct(input), public: await publicPath(input) };
  if (input.verify) {
    const report = await longship.verify();
    if (!report.ok) answer.public = { untyped: `verify(): ${report.problems.slice(0, 5).join('; ')}` };
  }
  process.send!(answer);
});
process.send!({ ready: true });
