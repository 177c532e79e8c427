// npm run bench:memory: memory retrieval on conversations in the LoCoMo format (LoCoMo, REALTALK).
// Each conversation goes in through the public API as sessions (one Longship session per session of
// the data, committed: without an LLM the messages are archived and indexed, with --llm-base the
// commit also extracts memories), then every question is asked with find() and with search(), and
// the runner reports recall@5 and recall@10 of the evidence turns and the latency of both.
//
//   npm run bench:memory -- --format locomo --file <conversation json or folder> --json out.json
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { openAiCompatibleLlm } from '../../src/llm/openai-compatible.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { SearchResult } from '../../src/retrieve/search.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { measureMachine } from '../lib/machine.js';
import { quantile } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from '../quality/embedding-cache.js';
import { type Conversation, conversationFiles, type EvidenceCounts, loadConversations } from './locomo.js';
import { wordsEmbedder } from './words-embedder.js';

const usage = `usage:
  npm run bench:memory -- --format locomo --file FILE|DIR [options]
options: --json FILE   --conversations N (the first N)   --embedder bundled|words (words: a fast hashed
         bag of words, for a smoke run)   --llm-base URL --llm-model NAME (key from LONGSHIP_LLM_KEY)`;

const { values: args } = parseArgs({
  options: {
    format: { type: 'string', default: 'locomo' },
    file: { type: 'string' },
    json: { type: 'string' },
    conversations: { type: 'string' },
    embedder: { type: 'string', default: 'bundled' },
    'llm-base': { type: 'string' },
    'llm-model': { type: 'string', default: 'gpt-4o-mini' },
    help: { type: 'boolean', short: 'h' },
  },
});
const fail = (message: string): never => {
  console.error(`${message}\n${usage}`);
  process.exit(2);
};
if (args.help) {
  console.log(usage);
  process.exit(0);
}
if (args.format !== 'locomo') fail(`--format must be locomo, not ${args.format}`);
if (!args.file) fail('--file is required');
if (!existsSync(args.file!)) {
  fail(`${args.file} does not exist: the evaluation data is not here, so there is nothing to measure`);
}

const conversations = conversationFiles(args.file!)
  .flatMap(loadConversations)
  .slice(0, args.conversations ? Number(args.conversations) : undefined);
if (conversations.length === 0) fail(`no conversations in ${args.file}`);

const model = args.embedder === 'words' ? wordsEmbedder() : transformersEmbedder();
const embedder = cachedEmbedder(
  model,
  new EmbeddingCache(`memory-${model.id.replace(/\W/g, '_')}`, model.dimensions),
);
const llm = args['llm-base']
  ? openAiCompatibleLlm({
      baseUrl: args['llm-base'],
      model: args['llm-model']!,
      apiKey: process.env.LONGSHIP_LLM_KEY ?? '',
    })
  : undefined;

interface Side {
  recall5: number[];
  recall10: number[];
  hit10: number[];
  latencies: number[];
}
const newSide = (): Side => ({ recall5: [], recall10: [], hit10: [], latencies: [] });
const sides = { find: newSide(), search: newSide() };
const byCategory = new Map<string, { n: number; find10: number; search10: number }>();
const evidence: EvidenceCounts = { ids: 0, exact: 0, repaired: 0, unresolved: 0, questionsWithout: 0 };
let turns = 0;
let ingestMs = 0;
let fallbacks = 0;

const recallAt = (found: readonly string[], truth: readonly string[], k: number) => {
  const top = new Set(found.slice(0, k));
  return truth.filter((id) => top.has(id)).length / truth.length;
};

async function run(conversation: Conversation, index: number): Promise<void> {
  const longship = await openLongship({ store: await openMemoryStore(), embedder, ...(llm ? { llm } : {}) });
  const turnOf = new Map<string, string>();
  const started = performance.now();
  for (const { key, turns: sessionTurns } of conversation.sessions) {
    if (sessionTurns.length === 0) continue;
    const session = longship.session(`c${index + 1}-${key.replace('_', '-')}`);
    for (const turn of sessionTurns) {
      await session.addMessage(turn.speaker === conversation.speakers[0] ? 'user' : 'assistant', turn.text, {
        name: turn.speaker,
        ...(turn.at === undefined ? {} : { at: turn.at }),
      });
    }
    const { archive } = await session.commit();
    const files = await longship.ls(archive!);
    // By the message's recorded position, not the listing's order (names sort as text).
    for (const file of files) turnOf.set(file.uri, sessionTurns[Number(file.meta.index) - 1]!.id);
    turns += sessionTurns.length;
  }
  ingestMs += performance.now() - started;
  // Every question's vector once, so neither side pays for the model or the cache differently.
  await embedder.embed(conversation.questions.map((q) => q.question));
  const options = { limit: 10, filter: { contextType: 'memory' as const, kind: 'file' as const } };
  for (const [i, question] of conversation.questions.entries()) {
    const ids = (result: { memories: { uri: string }[] }) =>
      result.memories.map((m) => turnOf.get(m.uri)).filter((id): id is string => id !== undefined);
    const timed = async <T>(call: () => Promise<T>): Promise<[T, number]> => {
      const embedBefore = embedder.embedMs;
      const t0 = performance.now();
      const value = await call();
      return [value, performance.now() - t0 - (embedder.embedMs - embedBefore)];
    };
    // Alternate which goes first, so that neither gains from the other's warm caches.
    let found: FindResult;
    let searched: SearchResult;
    let findMs: number;
    let searchMs: number;
    if (i % 2 === 0) {
      [found, findMs] = await timed(() => longship.find(question.question, options));
      [searched, searchMs] = await timed(() => longship.search(question.question, options));
    } else {
      [searched, searchMs] = await timed(() => longship.search(question.question, options));
      [found, findMs] = await timed(() => longship.find(question.question, options));
    }
    if (llm && searched.intent.source === 'fallback') fallbacks++;
    for (const [side, result, ms] of [
      [sides.find, found, findMs],
      [sides.search, searched, searchMs],
    ] as const) {
      const top = ids(result);
      side.recall5.push(recallAt(top, question.evidence, 5));
      side.recall10.push(recallAt(top, question.evidence, 10));
      side.hit10.push(recallAt(top, question.evidence, 10) > 0 ? 1 : 0);
      side.latencies.push(ms);
    }
    const category = byCategory.get(question.category) ?? { n: 0, find10: 0, search10: 0 };
    category.n++;
    category.find10 += sides.find.recall10.at(-1)!;
    category.search10 += sides.search.recall10.at(-1)!;
    byCategory.set(question.category, category);
  }
  for (const key of Object.keys(evidence) as (keyof EvidenceCounts)[])
    evidence[key] += conversation.evidence[key];
  await longship.close();
  console.log(
    `${conversation.name}: ${conversation.sessions.length} sessions, ${conversation.questions.length} questions; ` +
      `recall@10 so far find ${mean(sides.find.recall10).toFixed(3)} search ${mean(sides.search.recall10).toFixed(3)}`,
  );
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

for (const [i, conversation] of conversations.entries()) await run(conversation, i);

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const summary = (side: Side) => ({
  recall5: round(mean(side.recall5)),
  recall10: round(mean(side.recall10)),
  hit10: round(mean(side.hit10)),
  p50_ms: round(quantile(side.latencies, 0.5), 2),
  p95_ms: round(quantile(side.latencies, 0.95), 2),
});
const report = {
  dataset: args.file!.replace(/\/+$/, '').split('/').at(-1),
  conversations: conversations.length,
  questions: sides.find.recall10.length,
  turns,
  find: summary(sides.find),
  search: summary(sides.search),
  search_over_find_p50: round(quantile(sides.search.latencies, 0.5) / quantile(sides.find.latencies, 0.5), 3),
  by_category: Object.fromEntries(
    [...byCategory].map(([name, c]) => [
      name,
      { n: c.n, find_recall10: round(c.find10 / c.n), search_recall10: round(c.search10 / c.n) },
    ]),
  ),
  evidence,
  context: {
    embedder: model.id,
    llm: llm
      ? `${llm.model} at ${args['llm-base']}`
      : 'none: sessions archived and indexed, search() falls back to the query',
    llm_fallbacks: fallbacks,
    ingest_seconds: round(ingestMs / 1000, 1),
    options: 'limit 10, memory files only; the default mode (QUICK) for both',
    latency: 'per question, less the time spent embedding the question (embedded beforehand)',
    evidence_rule:
      'ids as written; else repaired (lists split, ranges expanded, punctuation dropped, run-together ids split) ' +
      'when that names turns; ids that still name no turn are dropped; questions left without evidence are not scored',
    machine: measureMachine(),
  },
};
console.log(
  JSON.stringify({ find: report.find, search: report.search, ratio: report.search_over_find_p50 }, null, 2),
);
if (args.json) writeReport(args.json, report, markdown(report));

function markdown(r: typeof report): string {
  const row = (name: string, s: ReturnType<typeof summary>) =>
    `| ${name} | ${s.recall5.toFixed(3)} | ${s.recall10.toFixed(3)} | ${s.hit10.toFixed(3)} | ${s.p50_ms.toFixed(1)} | ${s.p95_ms.toFixed(1)} |`;
  const e = r.evidence;
  return [
    `# Memory retrieval on ${r.dataset} (${r.conversations} conversations, ${r.questions} questions, ${r.turns} turns)`,
    '',
    `Each conversation committed as sessions through the public API; LLM: ${r.context.llm}. Embedder ${r.context.embedder}. ` +
      `${r.context.options}. Latency: ${r.context.latency}. Machine: ${r.context.machine.cpu}, ${r.context.machine.cores} cores, Node ${r.context.machine.node}.`,
    '',
    '| call | recall@5 | recall@10 | any evidence in top 10 | p50 ms | p95 ms |',
    '|:---|---:|---:|---:|---:|---:|',
    row('find()', r.find),
    row('search()', r.search),
    '',
    `search() p50 / find() p50: ${r.search_over_find_p50.toFixed(2)}×.`,
    '',
    `Evidence ids: ${e.ids}; ${e.exact} name a turn as written, ${e.repaired} after repair, ${e.unresolved} name no turn ` +
      `and are dropped; ${e.questionsWithout} questions are left without evidence and not scored. Rule: ${r.context.evidence_rule}.`,
    '',
  ].join('\n');
}
