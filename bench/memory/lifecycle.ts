// npm run bench:memory:lifecycle: how memories age, on conversations in the LoCoMo format (REALTALK
// from ../shared/eval/realtalk by default). No LLM: every turn of a session becomes an event memory
// (occurredAt: the turn's date; sources: its conversation, session and turn), written through the
// public API. Then, per conversation, the recall of each question's evidence among the top 5 and 10
// memories, with event decay off and on, before consolidateMemories() and after it at several
// similarity thresholds; and the growth of the store over the first sessions, with a TTL for events
// and without (docs/guide/memory-lifecycle.md).
//
//   npm run bench:memory:lifecycle -- [--file FILE|DIR] [--json out.json]
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { defaultSimilarity } from '../../src/memory/consolidate.js';
import { eventDecayDefaults, type MemoryOptions } from '../../src/memory/memory-options.js';
import { measureMachine } from '../lib/machine.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from '../quality/embedding-cache.js';
import {
  type Recall,
  recallOf,
  type StoreSize,
  sizeOf,
  timeline,
  writeSession,
} from './lifecycle-measure.js';
import { lifecycleMarkdown } from './lifecycle-report.js';
import { conversationFiles, loadConversations } from './locomo.js';
import { wordsEmbedder } from './words-embedder.js';

const usage = `usage:
  npm run bench:memory:lifecycle -- [options]
options: --file FILE|DIR (default ../shared/eval/realtalk beside the repository)   --json FILE (default
         bench/results/memory-lifecycle.json)   --conversations N   --sessions N (growth; default 50)
         --ttl-days N (default 30)   --thresholds 0.6,0.7,… (default 0.6,0.7,0.8,0.9,1)
         --embedder bundled|words (words: a hashed bag of words, for a smoke run)`;

const { values: args } = parseArgs({
  options: {
    file: { type: 'string' },
    json: { type: 'string' },
    conversations: { type: 'string' },
    sessions: { type: 'string', default: '50' },
    'ttl-days': { type: 'string', default: '30' },
    thresholds: { type: 'string', default: '0.6,0.7,0.8,0.9,1' },
    embedder: { type: 'string', default: 'bundled' },
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
const file = args.file ?? fileURLToPath(new URL('../../../shared/eval/realtalk', import.meta.url));
if (!existsSync(file)) {
  console.log(`The conversations are not at ${file}: nothing to measure.`);
  process.exit(0);
}
const whole = (flag: string, value: string) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : fail(`--${flag} takes a whole number ≥ 1, not ${value}`);
};
const growthSessions = whole('sessions', args.sessions!);
const ttlDays = whole('ttl-days', args['ttl-days']!);
const thresholds = args.thresholds!.split(',').map(Number);
if (!thresholds.every((t) => t > 0 && t <= 1))
  fail(`--thresholds are numbers in (0, 1], not ${args.thresholds}`);
if (!thresholds.includes(defaultSimilarity)) thresholds.push(defaultSimilarity);
thresholds.sort((a, b) => a - b);

const conversations = conversationFiles(file)
  .flatMap(loadConversations)
  .slice(0, args.conversations ? whole('conversations', args.conversations) : undefined);
if (conversations.length === 0) fail(`no conversations in ${file}`);

const model = args.embedder === 'words' ? wordsEmbedder() : transformersEmbedder();
const embedder = cachedEmbedder(
  model,
  new EmbeddingCache(`memory-lifecycle-${model.id.replace(/\W/g, '_')}`, model.dimensions),
);
const DAY = 86_400_000;
const scratch = mkdtempSync(join(tmpdir(), 'longship-memory-lifecycle-'));

/** A Longship over the store in `folder`, its clock at `now`. */
const open = (folder: string, now: number, memory: MemoryOptions = {}): Promise<Longship> =>
  openLongship({ store: folder, embedder, memory: { now: () => now, ...memory } });

interface Condition {
  name: string;
  similarity: number | null;
  decay: boolean;
  recall: Recall;
  memories: number;
  merges: number;
  removed: number;
  /** Merges a second consolidation found (idempotence: 0). */
  secondRun: number | null;
}
const conditions = new Map<string, Condition>();
const add = (
  name: string,
  fields: Omit<Condition, 'name' | 'recall' | 'memories' | 'merges' | 'removed'>,
  recall: Recall,
  counts: { memories: number; merges: number; removed: number },
) => {
  const c = conditions.get(name) ?? {
    name,
    ...fields,
    secondRun: fields.secondRun === null ? null : 0,
    recall: { at5: [], at10: [] },
    memories: 0,
    merges: 0,
    removed: 0,
  };
  c.recall.at5.push(...recall.at5);
  c.recall.at10.push(...recall.at10);
  c.memories += counts.memories;
  c.merges += counts.merges;
  c.removed += counts.removed;
  if (fields.secondRun !== null) c.secondRun = (c.secondRun ?? 0) + fields.secondRun;
  conditions.set(name, c);
};

/** Event decay as measured: off, the default, and a one-week protection window. */
const decays: { name: string; decay: boolean; options: MemoryOptions }[] = [
  { name: 'decay off', decay: false, options: { decay: false } },
  { name: 'decay on', decay: true, options: {} },
  { name: 'decay, 7-day window', decay: true, options: { decay: { protectionDays: 7 } } },
];

/** Recall in the store at `folder` under each decay, recorded as `<stage>, <decay>`. */
async function recallUnderDecays(
  folder: string,
  now: number,
  stage: string,
  conversation: (typeof conversations)[number],
  fields: { similarity: number | null; secondRun: number | null },
  counts: { memories: number; merges: number; removed: number },
): Promise<void> {
  for (const { name, decay, options } of decays) {
    const longship = await open(folder, now, options);
    // The second run is counted once, with the first decay.
    const secondRun = name === decays[0]!.name ? fields.secondRun : null;
    add(`${stage}, ${name}`, { ...fields, secondRun, decay }, await recallOf(longship, conversation), counts);
    await longship.close();
  }
}

async function measureConversation(index: number): Promise<void> {
  const conversation = conversations[index]!;
  const sessions = timeline([conversation]);
  const now = Math.max(...sessions.flatMap((s) => s.turns.map((t) => t.at))) + DAY;
  const written = join(scratch, `c${index}`);
  let longship = await open(written, now, { decay: false });
  for (const session of sessions) await writeSession(longship, session);
  const memories = (await sizeOf(longship)).memories;
  await longship.close();
  const none = { memories, merges: 0, removed: 0 };
  await recallUnderDecays(written, now, 'before', conversation, { similarity: null, secondRun: null }, none);
  for (const similarity of thresholds) {
    const copy = join(scratch, `c${index}-${similarity}`);
    cpSync(written, copy, { recursive: true });
    longship = await open(copy, now, { decay: false });
    const { merges, removed } = await longship.consolidateMemories({ similarity });
    const secondRun = (await longship.consolidateMemories({ similarity })).merges.length;
    const counts = { memories: (await sizeOf(longship)).memories, merges: merges.length, removed };
    await longship.close();
    if (similarity === defaultSimilarity) {
      await recallUnderDecays(
        copy,
        now,
        `after ${similarity}`,
        conversation,
        { similarity, secondRun },
        counts,
      );
    } else {
      longship = await open(copy, now, { decay: false });
      add(
        `after ${similarity}, decay off`,
        { similarity, decay: false, secondRun },
        await recallOf(longship, conversation),
        counts,
      );
      await longship.close();
    }
    rmSync(copy, { recursive: true, force: true });
  }
  rmSync(written, { recursive: true, force: true });
  const before = conditions.get('before, decay off')!.recall.at10;
  console.log(
    `${conversation.name}: ${memories} memories, ${conversation.questions.length} questions; recall@10 so far ${mean(before).toFixed(3)}`,
  );
}

/** The store's size after each session, with a TTL for events (swept after each session) or none. */
async function growth(ttl: boolean): Promise<(StoreSize & { session: number; day: number })[]> {
  const sessions = timeline(conversations).slice(0, growthSessions);
  let now = sessions[0]?.turns[0]?.at ?? 0;
  const start = now;
  const folder = join(scratch, ttl ? 'growth-ttl' : 'growth');
  const longship = await openLongship({
    store: folder,
    embedder,
    memory: { now: () => now, ...(ttl ? { ttl: { events: ttlDays * DAY } } : {}) },
  });
  const sizes = [];
  for (const [i, session] of sessions.entries()) {
    now = Math.max(...session.turns.map((t) => t.at));
    await writeSession(longship, session);
    if (ttl) await longship.sweepMemories();
    sizes.push({ session: i + 1, day: Math.round((now - start) / DAY), ...(await sizeOf(longship)) });
  }
  await longship.close();
  rmSync(folder, { recursive: true, force: true });
  return sizes;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

try {
  for (let i = 0; i < conversations.length; i++) await measureConversation(i);
  const withoutTtl = await growth(false);
  const withTtl = await growth(true);
  const baseline = mean(conditions.get('before, decay off')!.recall.at10);
  const report = {
    dataset: file.replace(/\/+$/, '').split('/').at(-1),
    conversations: conversations.length,
    questions: conditions.get('before, decay off')!.recall.at10.length,
    conditions: [...conditions.values()].map((c) => ({
      name: c.name,
      similarity: c.similarity,
      decay: c.decay,
      recall5: round(mean(c.recall.at5)),
      recall10: round(mean(c.recall.at10)),
      recall10_change: round(mean(c.recall.at10) - baseline),
      memories: c.memories,
      merges: c.merges,
      removed: c.removed,
      second_run_merges: c.secondRun,
    })),
    growth: {
      sessions: withoutTtl.length,
      ttl_days: ttlDays,
      without_ttl: withoutTtl,
      with_ttl: withTtl,
    },
    context: {
      embedder: model.id,
      memories:
        'each turn an event memory (occurredAt: its date; sources: conversation/session/turn), no LLM',
      recall:
        'per question, the share of its evidence turns whose every sentence is in one of the top k memories ' +
        '(find(), limit 10, memory files only, QUICK)',
      clock: 'a day after the conversation’s last turn, for decay; growth: each session’s last turn',
      decay:
        `on: the default, a ${eventDecayDefaults.halfLifeDays}-day half-life after ${eventDecayDefaults.protectionDays} days; ` +
        '7-day window: the same half-life after 7 days',
      default_similarity: defaultSimilarity,
      timeline: 'each conversation starts a day after the one before it ends; gaps within one are the data’s',
      machine: measureMachine(),
    },
  };
  const markdown = lifecycleMarkdown(report);
  console.log(`\n${markdown}`);
  writeReport(
    args.json ?? fileURLToPath(new URL('../results/memory-lifecycle.json', import.meta.url)),
    report,
    markdown,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

export type LifecycleReport = {
  dataset: string | undefined;
  conversations: number;
  questions: number;
  conditions: {
    name: string;
    similarity: number | null;
    decay: boolean;
    recall5: number;
    recall10: number;
    recall10_change: number;
    memories: number;
    merges: number;
    removed: number;
    second_run_merges: number | null;
  }[];
  growth: {
    sessions: number;
    ttl_days: number;
    without_ttl: (StoreSize & { session: number; day: number })[];
    with_ttl: (StoreSize & { session: number; day: number })[];
  };
  context: Record<string, unknown> & {
    embedder: string;
    machine: { cpu: string; cores: number; node: string };
  };
};
