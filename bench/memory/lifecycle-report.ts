// The markdown of bench/memory/lifecycle.ts: recall by condition, and the store's growth.
import { cell, markdownTable } from '../lib/markdown.js';
import type { LifecycleReport } from './lifecycle.js';

export function lifecycleMarkdown(r: LifecycleReport): string {
  const recall = markdownTable(
    [
      'condition',
      'recall@5',
      'recall@10',
      'recall@10 change',
      'memories',
      'merged away',
      'merges on a second run',
    ],
    r.conditions.map((c) => [
      c.name,
      cell(c.recall5, 3),
      cell(c.recall10, 3),
      `${c.recall10_change >= 0 ? '+' : ''}${cell(c.recall10_change, 3)}`,
      String(c.memories),
      String(c.removed),
      c.second_run_merges === null ? '—' : String(c.second_run_merges),
    ]),
  );
  const { without_ttl: off, with_ttl: on } = r.growth;
  const marks = off.filter((row, i) => row.session % 10 === 0 || i === off.length - 1);
  const growth = markdownTable(
    [
      'after session',
      'day',
      'memories, no TTL',
      'KB, no TTL',
      `memories, TTL ${r.growth.ttl_days} days`,
      `KB, TTL ${r.growth.ttl_days} days`,
    ],
    marks.map((row) => {
      const ttl = on[row.session - 1]!;
      return [
        String(row.session),
        String(row.day),
        String(row.memories),
        cell(row.bytes / 1024, 0),
        String(ttl.memories),
        cell(ttl.bytes / 1024, 0),
      ];
    }),
  );
  const c = r.context;
  return [
    `# Memory lifecycle on ${r.dataset} (${r.conversations} conversations, ${r.questions} questions)`,
    '',
    `Memories: ${c.memories}. Recall: ${c.recall}. Decay: ${c.decay}; clock ${c.clock}. ` +
      `Consolidation without an LLM (extractive); "after 0.8": at that similarity threshold (the default is ${c.default_similarity}). ` +
      `Embedder ${c.embedder}. Machine: ${c.machine.cpu}, ${c.machine.cores} cores, Node ${c.machine.node}.`,
    '',
    recall,
    '',
    `## Growth over ${r.growth.sessions} sessions`,
    '',
    `Timeline: ${c.timeline}. With the TTL, expired memories are swept after each session. ` +
      'KB: the memories’ L0, L1 and L2 in UTF-8 and their vectors at 4 bytes a dimension.',
    '',
    growth,
    '',
  ].join('\n');
}
