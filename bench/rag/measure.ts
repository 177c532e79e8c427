// One find() configuration over a dataset's questions, scored as OpenViking's benchmark/RAG does
// (src/pipeline.py): find(question) under viking://resources, each hit read (a file's L2; a
// directory's abstract and overview), check_recall over the texts. Beside OpenViking's top-5 figure:
// top 10, the top 10 joined in rank order and cut at a character budget, recall counting only the
// hits inside the question's own document, and where each missed evidence string went; the recall
// figures also for each half of the questions (bench/rag/halves.ts).
import type { Longship } from '../../src/engine.js';
import type { MatchedContext } from '../../src/retrieve/results.js';
import type { FindOptions } from '../../src/retrieve/settings.js';
import type { Half } from '../lib/halves.js';
import { quantile } from '../lib/stats.js';
import { evidenceFound, joined, type Retrieved, recallIn, retrieved } from './check-recall.js';
import type { RagConfig } from './configs.js';
import type { RagDataset, RagQuestion } from './dataset.js';
import type { GoldDocument } from './gold.js';

export const budgets = [4000, 8000, 16000] as const;

/** What happened to each evidence string at top 5. */
export interface EvidenceOutcome {
  total: number;
  found: number;
  /** Found, but only in hits outside the question's own document (soft matching's credit). */
  foundElsewhereOnly: number;
  /** Missed, and no top-5 hit lies inside the question's own document. */
  wrongDocument: number;
  /** Missed, though some top-5 hit lies inside the question's own document. */
  wrongSection: number;
  /** Missed, and in the gold document's text but not in its leaves as Longship holds them. */
  lostInIngestion: number;
  /** Missed, and not found in the whole gold document either: no retrieval can find it. */
  notInText: number;
}

/** The recall figures over one half's questions. */
export interface HalfFigures {
  questions: number;
  recall5: number;
  recall10: number;
  recallAtChars: Record<string, number>;
  ownRecall5: number;
}

export interface ConfigResult {
  name: string;
  options: FindOptions;
  questions: number;
  recall5: number;
  recall10: number;
  /** The top 10 joined with spaces in rank order, cut at this many characters. */
  recallAtChars: Record<string, number>;
  /** Recall of the top-5 (top-10) hits that lie inside the question's own document. */
  ownRecall5: number;
  ownRecall10: number;
  /** Characters of the top-5 (top-10) texts, per question. */
  chars5: number;
  chars10: number;
  /** Directories among the top-5 slots filled. */
  directoryShare5: number;
  /** find() with limit 5, less the time spent embedding the query. */
  p50Ms: number;
  p95Ms: number;
  byCategory: Record<string, { questions: number; recall5: number; ownRecall5: number }>;
  /** The same recall over each half's questions (a half none of the questions are in has 0 questions). */
  halves: Record<Half, HalfFigures>;
  evidence: EvidenceOutcome;
}

/** One question's outcome, for `--details`: what to look at when a figure moves. */
export interface QuestionDetail {
  config: string;
  id: string;
  sampleId: string;
  category: string;
  recall5: number;
  ownRecall5: number;
  /** The top-5 URIs, a trailing `/` marking a directory. */
  top5: string[];
}

/** What the benchmark needs of Longship: find, the tree's reads, and the embedding time so far. */
export interface Subject {
  longship: Longship;
  embedMs: () => number;
}

/**
 * The text of a hit as OpenViking reads it, prepared for matching; memoised, since questions and
 * configurations share most hits.
 */
export function hitReader(longship: Longship): (hit: MatchedContext) => Promise<Retrieved> {
  const texts = new Map<string, Promise<Retrieved>>();
  return (hit) => {
    let text = texts.get(hit.uri);
    if (!text) {
      const read = hit.isLeaf
        ? longship.read(hit.uri)
        : Promise.all([longship.abstract(hit.uri), longship.overview(hit.uri)]).then(
            ([a, o]) => `${a}\n${o}`,
          );
      text = read.then((content) => retrieved([content]));
      texts.set(hit.uri, text);
    }
    return text;
  };
}

/** The parts joined with spaces in order and cut at `budget` characters, prepared for matching. */
export function cutAt(parts: readonly Retrieved[], budget: number): Retrieved {
  const tokens = new Set<string>();
  let at = 0;
  for (const part of parts) {
    if (at >= budget) break;
    const kept =
      part.combined.length <= budget - at ? part : retrieved([part.combined.slice(0, budget - at)]);
    for (const token of kept.tokens) tokens.add(token);
    at += part.combined.length + 1;
  }
  return { combined: joined(parts).combined.slice(0, budget), tokens };
}

interface Scored {
  recall5: number;
  recall10: number;
  atChars: number[];
  own5: number;
  own10: number;
  chars5: number;
  chars10: number;
  directories5: number;
  slots5: number;
  ms: number;
}

export async function measureConfig(
  subject: Subject,
  dataset: RagDataset,
  questions: readonly RagQuestion[],
  config: RagConfig,
  read: (hit: MatchedContext) => Promise<Retrieved>,
  gold: Map<string, GoldDocument>,
  halfOf: ReadonlyMap<RagQuestion, Half>,
  details?: QuestionDetail[],
): Promise<ConfigResult> {
  const evidence: EvidenceOutcome = {
    total: 0,
    found: 0,
    foundElsewhereOnly: 0,
    wrongDocument: 0,
    wrongSection: 0,
    lostInIngestion: 0,
    notInText: 0,
  };
  const scored: Scored[] = [];
  const inHalf: Record<Half, Scored[]> = { tuning: [], reporting: [] };
  const categories = new Map<string, Scored[]>();
  for (const question of questions) {
    const path = dataset.documentOf.get(question.sampleId);
    const own = path ? gold.get(path) : undefined;
    const inDocument = (hit: MatchedContext) =>
      own !== undefined && (hit.uri === own.uri || hit.uri.startsWith(`${own.uri}/`));
    const targetUri = config.inGoldDocument && own ? own.uri : 'viking://resources';
    const options = { ...config.options, targetUri };
    const embedBefore = subject.embedMs();
    const started = performance.now();
    const top5 = (await subject.longship.find(question.question, { ...options, limit: 5 })).resources;
    const ms = performance.now() - started - (subject.embedMs() - embedBefore);
    const top10 = (await subject.longship.find(question.question, { ...options, limit: 10 })).resources;
    const parts5 = await Promise.all(top5.map(read));
    const parts10 = await Promise.all(top10.map(read));
    const own5 = joined(parts5.filter((_, i) => inDocument(top5[i]!)));
    const own10 = joined(parts10.filter((_, i) => inDocument(top10[i]!)));
    const all5 = joined(parts5);
    const chars = (parts: Retrieved[]) => parts.reduce((sum, part) => sum + part.combined.length, 0);
    const result: Scored = {
      recall5: recallIn(all5, question.evidence),
      recall10: recallIn(joined(parts10), question.evidence),
      atChars: budgets.map((budget) => recallIn(cutAt(parts10, budget), question.evidence)),
      own5: recallIn(own5, question.evidence),
      own10: recallIn(own10, question.evidence),
      chars5: chars(parts5),
      chars10: chars(parts10),
      directories5: top5.filter((hit) => !hit.isLeaf).length,
      slots5: top5.length,
      ms,
    };
    scored.push(result);
    const half = halfOf.get(question);
    if (!half) throw new Error(`question ${question.id} is in neither half`);
    inHalf[half].push(result);
    const inCategory = categories.get(question.category) ?? [];
    inCategory.push(result);
    categories.set(question.category, inCategory);
    classify(evidence, question.evidence, all5, own5, own, top5.some(inDocument));
    details?.push({
      config: config.name,
      id: question.id,
      sampleId: question.sampleId,
      category: question.category,
      recall5: result.recall5,
      ownRecall5: result.own5,
      top5: top5.map((hit) => (hit.isLeaf ? hit.uri : `${hit.uri}/`)),
    });
  }
  const slots = scored.reduce((sum, s) => sum + s.slots5, 0);
  return {
    name: config.name,
    options: config.options,
    ...recalls(scored),
    ownRecall10: mean(scored, (s) => s.own10),
    chars5: mean(scored, (s) => s.chars5),
    chars10: mean(scored, (s) => s.chars10),
    directoryShare5: slots === 0 ? 0 : scored.reduce((sum, s) => sum + s.directories5, 0) / slots,
    p50Ms: quantile(
      scored.map((s) => s.ms),
      0.5,
    ),
    p95Ms: quantile(
      scored.map((s) => s.ms),
      0.95,
    ),
    byCategory: Object.fromEntries(
      [...categories].map(([category, rows]) => [
        category,
        {
          questions: rows.length,
          recall5: mean(rows, (s) => s.recall5),
          ownRecall5: mean(rows, (s) => s.own5),
        },
      ]),
    ),
    halves: { tuning: recalls(inHalf.tuning), reporting: recalls(inHalf.reporting) },
    evidence,
  };
}

const mean = (rows: readonly Scored[], pick: (s: Scored) => number) =>
  rows.length === 0 ? 0 : rows.reduce((sum, s) => sum + pick(s), 0) / rows.length;

function recalls(rows: readonly Scored[]): HalfFigures {
  return {
    questions: rows.length,
    recall5: mean(rows, (s) => s.recall5),
    recall10: mean(rows, (s) => s.recall10),
    recallAtChars: Object.fromEntries(budgets.map((b, i) => [String(b), mean(rows, (s) => s.atChars[i]!)])),
    ownRecall5: mean(rows, (s) => s.own5),
  };
}

/** Sorts each evidence string of a question into found or where it was missed. */
function classify(
  into: EvidenceOutcome,
  evidence: readonly string[],
  top5: Retrieved,
  own5: Retrieved,
  gold: GoldDocument | undefined,
  reachedDocument: boolean,
): void {
  for (const item of evidence) {
    into.total++;
    if (evidenceFound(top5, item)) {
      into.found++;
      if (!evidenceFound(own5, item)) into.foundElsewhereOnly++;
    } else if (gold && !evidenceFound(gold.source, item) && !evidenceFound(gold.indexed, item)) {
      into.notInText++;
    } else if (gold && !evidenceFound(gold.indexed, item)) into.lostInIngestion++;
    else if (!reachedDocument) into.wrongDocument++;
    else into.wrongSection++;
  }
}
