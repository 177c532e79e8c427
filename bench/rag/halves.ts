// How `npm run bench:rag` halves each dataset's questions (bench/lib/halves.ts, docs/benchmarks.md):
// FinanceBench by company, since a company's filings share their wording and its questions name it;
// a set prepared as OpenViking's adapters write it (SyllabusQA) by document, its syllabus; LoCoMo-format
// chats (REALTALK) by chat. The seed is a constant, not a flag: a split chosen for its figures would
// tune on the reporting half.
import { type Half, type HalfSplit, halves, splitHalves } from '../lib/halves.js';
import type { RagDataset, RagQuestion } from './dataset.js';

export const halvesSeed = 40;

/** The group a dataset's questions are split by, as the report names it. */
export type Grouping = 'company' | 'document';

/** `n` groups in words: `1 company`, `6 companies`. */
export function groupCount(n: number, grouping: Grouping): string {
  return `${n} ${n === 1 ? grouping : grouping === 'company' ? 'companies' : 'documents'}`;
}

/** A FinanceBench filing's company: its name up to the year, `JOHNSON_JOHNSON_2022Q4_EARNINGS` → `JOHNSON_JOHNSON`. */
export function companyOf(filing: string): string {
  return (/^(.+?)_\d{4}/.exec(filing)?.[1] ?? filing).toUpperCase();
}

export function groupingOf(dataset: Pick<RagDataset, 'name'>): Grouping {
  return dataset.name === 'financebench' ? 'company' : 'document';
}

/** The question's group: its document (a syllabus, a chat), or for FinanceBench the document's company. */
export function groupOf(grouping: Grouping): (question: RagQuestion) => string {
  return grouping === 'company' ? (q) => companyOf(q.sampleId) : (q) => q.sampleId;
}

/** The dataset's halves, made from all its questions: a `--limit-questions` sample does not move them. */
export function ragHalves(dataset: RagDataset): { grouping: Grouping; split: HalfSplit<RagQuestion> } {
  const grouping = groupingOf(dataset);
  return { grouping, split: splitHalves(dataset.questions, groupOf(grouping), halvesSeed) };
}

/** Each question's half (by the question itself: ids need not be unique across a set's files). */
export function halfByQuestion(split: HalfSplit<RagQuestion>): Map<RagQuestion, Half> {
  return new Map(halves.flatMap((half) => split[half].items.map((q): [RagQuestion, Half] => [q, half])));
}
