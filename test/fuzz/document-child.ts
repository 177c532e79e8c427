// The document fuzz run's child process (`node --import tsx`): takes one PDF or Office file at a
// time over IPC, reads it directly (readInput, which converts it, then the Markdown parser and the
// split) and through addResource() on a Longship in memory, and answers how each ended with its
// memory after. A hang is the parent's to see.

import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { readInput } from '../../src/ingest/input.js';
import { parseDocument } from '../../src/ingest/parse/parse.js';
import { splitDocument } from '../../src/ingest/parse/split.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { hashEmbedder } from '../context/hash-embedder.js';
import { envSwitches } from '../model/switches.js';
import type { DocumentAnswer, DocumentInput, Ended } from './fuzz-input.js';

const switches = envSwitches();
let strayRejections = 0;

// A rejection no one handles would end an app's process too: the child dies (a failure of the run)
// with the rejection's stack, which Node's own report leaves out for a non-Error reason. pdf.js's
// own (their stack is that of its module's load) are only counted while pdfStrayRejections is off.
process.on('unhandledRejection', (reason) => {
  const stack = (reason as Error | undefined)?.stack ?? String(reason);
  if (!switches.pdfStrayRejections && stack.includes('pdfjs-dist')) {
    strayRejections++;
    return;
  }
  console.error(`unhandled rejection: ${stack}`);
  process.exit(70);
});

// The inputs share a few names, so each add replaces the last of its name and the store stays small.
const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });

function ended(error: unknown): Ended {
  if (error instanceof LongshipError) return { typed: error.code };
  const e = error as Error;
  return { untyped: `${e?.name}: ${e?.message}\n${e?.stack ?? ''}`.slice(0, 2000) };
}

async function direct(input: DocumentInput): Promise<Ended> {
  try {
    const { documents } = await readInput(input.bytes.slice(), { name: input.name });
    for (const document of documents)
      splitDocument(parseDocument(document), { maxTokens: 64, mergeBelow: 16 });
    return { ok: true };
  } catch (error) {
    return ended(error);
  }
}

async function publicPath(input: DocumentInput): Promise<Ended> {
  try {
    await longship.addResource(input.bytes.slice(), { name: input.name, maxTokens: 64, mergeBelow: 16 });
    return { ok: true };
  } catch (error) {
    return ended(error);
  } finally {
    await longship.waitProcessed();
  }
}

process.on('message', async (input: DocumentInput) => {
  const answer = { id: input.id, direct: await direct(input), public: await publicPath(input) };
  if (input.verify) {
    const report = await longship.verify();
    if (!report.ok) answer.public = { untyped: `verify(): ${report.problems.slice(0, 5).join('; ')}` };
  }
  const memory = process.memoryUsage();
  process.send!({
    ...answer,
    rssBytes: memory.rss,
    // maxRSS is in kilobytes.
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: memory.heapUsed,
    strayRejections,
  } satisfies DocumentAnswer);
  strayRejections = 0;
});
process.send!({ ready: true });
