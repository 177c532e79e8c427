// The Markdown report of bench/quality/obliqa.ts.
import type { Measured } from './obliqa-metrics.js';

interface ReportRow extends Measured {
  group: string;
  label: string;
  lexical: string;
  split: string;
}

interface Report {
  dataset: string;
  model: string;
  hierarchy: { depth: number; files: number; directories: number; vectors: number };
  questions: { tune: number; validate: number };
  machine: { cpu: string; cores: number; node: string };
  defaults: Record<string, unknown>;
  best: { flat: string; walk: string };
  lexicalMsPerQuery: Record<string, number>;
  rows: ReportRow[];
  elapsedSeconds: number;
}

const fixed = (x: number, d = 4) => x.toFixed(d);

function table(rows: readonly ReportRow[]): string {
  const lines = [
    '| group | setting | nDCG@10 | Recall@10 | gold scored | ms/query |',
    '|:---|:---|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const label =
      r.lexical === 'subtree' && !r.label.includes('subtree') ? `${r.label} (dirs: subtree text)` : r.label;
    const gold = r.goldScored === null ? '—' : `${(r.goldScored * 100).toFixed(1)}%`;
    lines.push(
      `| ${r.group} | ${label} | ${fixed(r.ndcg10)} | ${fixed(r.recall10)} | ${gold} | ${r.msPerQuery.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

export function renderMarkdown(report: Report): string {
  const tune = report.rows.filter((r) => r.split === 'tune');
  const validate = report.rows.filter((r) => r.split === 'validate');
  const h = report.hierarchy;
  return `# Retrieval quality on ObliQA

${report.dataset}; embeddings: ${report.model}. Tree: one directory per document, PassageID segments
as directories to depth ${h.depth} (chapter, section), each passage a file: ${h.files} files,
${h.directories} directories, ${h.vectors} vectors. Directory L0/L1 are the extractive summaries.
Results are files only (\`filter: { kind: 'file' }\`), \`limit: 10\`; binary relevance, each gold
passage counted once. "gold scored": the share of questions for which the walk scored at least one
relevant passage. Machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}.
Run: \`npx tsx bench/quality/obliqa.ts\` (${report.elapsedSeconds} s, embeddings cached).
"ms/query" leaves out the BM25 search itself, memoised per question because every setting asks
the same: on these long questions one search over the whole scope took
${Object.entries(report.lexicalMsPerQuery)
  .map(([variant, ms]) => `${ms.toFixed(0)} ms (directories as ${variant})`)
  .join(', ')} on its own.

Settings were tuned one at a time (each sweep keeps the best of the previous one) on
${report.questions.tune} questions drawn by a seeded shuffle of the dev set; the chosen settings
were then measured once on the other ${report.questions.validate}.

Best measured on the tuning questions: flat — ${report.best.flat}; walk — ${report.best.walk}.
The library's defaults (\`findDefaults\`, resolved for \`limit: 10\`), chosen from these tables:
\`${JSON.stringify(report.defaults)}\`.

## Tuning (${report.questions.tune} questions)

${table(tune)}
${validate.length > 0 ? `\n## Validation (${report.questions.validate} questions, not used for tuning)\n\n${table(validate)}\n` : ''}`;
}
