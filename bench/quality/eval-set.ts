// The evaluation sets bench:quality reads, as folders of documents for addResource and queries
// with graded relevance: BEIR's layout (any BEIR set) and ObliQA's (regulations as a tree).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldKey, loadObliqaFiles } from './obliqa-data.js';

export interface EvalDocument {
  /** The dataset's id, as the qrels name it. Several documents may share one (ObliQA repeats a few). */
  id: string;
  /** Where it goes in the folder given to addResource. */
  path: string;
  content: string;
}

export interface EvalQuery {
  id: string;
  text: string;
  /** Relevant document ids and their grades (> 0). */
  relevant: Map<string, number>;
}

export interface EvalSet {
  dataset: string;
  split: string;
  documents: EvalDocument[];
  queries: EvalQuery[];
}

const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

/** A URI segment: no `/`, `\`, `?`, `#`, `%` or control characters. */
const safe = (name: string) => name.replace(/[/\\?#%\p{Cc}]/gu, '_').slice(0, 200);

/**
 * A BEIR set: `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl`, `qrels/<split>.tsv`. Each
 * document is a Markdown file, its title a heading; only queries with relevance judgements count.
 */
export function loadBeir(dir: string, split: string): EvalSet {
  const qrelsFile = join(dir, 'qrels', `${split}.tsv`);
  for (const file of [join(dir, 'corpus.jsonl'), join(dir, 'queries.jsonl'), qrelsFile]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: not a BEIR folder with a ${split} split`);
  }
  const relevant = new Map<string, Map<string, number>>();
  for (const line of readFileSync(qrelsFile, 'utf8').split('\n').slice(1)) {
    const [query, doc, grade] = line.trim().split('\t');
    if (!query || !doc || !(Number(grade) > 0)) continue;
    const judged = relevant.get(query) ?? new Map<string, number>();
    judged.set(doc, Number(grade));
    relevant.set(query, judged);
  }
  const documents = jsonl<{ _id: string; title?: string; text: string }>(join(dir, 'corpus.jsonl')).map(
    (doc) => ({
      id: doc._id,
      path: `${safe(doc._id)}.md`,
      content: doc.title ? `# ${doc.title}\n\n${doc.text}` : doc.text,
    }),
  );
  const queries = jsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl'))
    .filter((query) => relevant.has(query._id))
    .map((query) => ({ id: query._id, text: query.text, relevant: relevant.get(query._id)! }));
  const dataset =
    dir
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .at(-1) ?? 'beir';
  return { dataset, split, documents, queries };
}

/**
 * ObliQA: each regulatory document a directory, the first two PassageID segments (chapter,
 * section) directories below it, each passage a text file. Relevance is binary.
 */
export function loadObliqa(passagesPath: string, questionsPath: string): EvalSet {
  const { passages, questions } = loadObliqaFiles(passagesPath, questionsPath);
  const taken = new Set<string>();
  const documents: EvalDocument[] = [];
  for (const passage of passages) {
    if (passage.text.trim() === '') continue;
    const segments = passage.id
      .split('.')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const dirs = [`doc-${passage.doc}`];
    for (let k = 1; k <= Math.min(2, segments.length - 1); k++)
      dirs.push(safe(segments.slice(0, k).join('.')));
    const stem = safe(segments.join('.') || passage.id);
    let path = `${dirs.join('/')}/${stem}.txt`;
    for (let n = 2; taken.has(path); n++) path = `${dirs.join('/')}/${stem}~${n}.txt`;
    taken.add(path);
    documents.push({ id: goldKey(passage.doc, passage.id), path, content: passage.text });
  }
  return {
    dataset: 'obliqa',
    split: questionsPath.match(/ObliQA_(\w+)\.json$/)?.[1] ?? 'dev',
    documents,
    queries: questions.map((q) => ({
      id: q.id,
      text: q.text,
      relevant: new Map(q.gold.map((key) => [key, 1])),
    })),
  };
}

/** Cranfield's fields: `.I id`, then `.T` title, `.A` authors, `.B` source, `.W` text. */
function cranfieldRecords(text: string): { id: string; fields: Map<string, string> }[] {
  return text
    .split(/^\.I\s+/m)
    .slice(1)
    .map((record) => {
      const [id = '', ...rest] = record.split('\n');
      const fields = new Map<string, string>();
      for (const part of rest.join('\n').split(/^\./m).slice(1)) {
        fields.set(part.slice(0, 1), part.slice(1).trim().replace(/\s+/g, ' '));
      }
      return { id: id.trim(), fields };
    });
}

/**
 * The Cranfield collection: `cran.all.1400` (each abstract a Markdown file, its title a heading),
 * `cran.qry` and `cranqrel`. The qrels number queries by position (1..225), not by `.I`; grades
 * 1–3 (a complete answer, highly relevant, useful) count as relevant, 4 (minimum interest) does not.
 */
export function loadCranfield(dir: string): EvalSet {
  const documents = cranfieldRecords(readFileSync(join(dir, 'cran.all.1400'), 'utf8')).map(
    ({ id, fields }) => ({
      id,
      path: `${safe(id)}.md`,
      content: `# ${fields.get('T') ?? id}\n\n${fields.get('W') ?? ''}`,
    }),
  );
  const relevant = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'cranqrel'), 'utf8').split('\n')) {
    const [query, doc, grade] = line.trim().split(/\s+/).map(Number);
    if (!query || !doc || !grade || grade < 1 || grade > 3) continue;
    const judged = relevant.get(String(query)) ?? new Map<string, number>();
    judged.set(String(doc), 5 - grade);
    relevant.set(String(query), judged);
  }
  const queries = cranfieldRecords(readFileSync(join(dir, 'cran.qry'), 'utf8'))
    .map(({ fields }, i) => ({
      id: String(i + 1),
      text: fields.get('W') ?? '',
      relevant: relevant.get(String(i + 1)),
    }))
    .filter((query): query is EvalQuery => query.relevant !== undefined);
  return { dataset: 'cranfield', split: 'all', documents, queries };
}
