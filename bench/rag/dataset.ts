// The data of `npm run bench:rag`: a folder of Markdown documents and questions whose `evidence`
// strings should appear in what find() returns. Two layouts: a set prepared as OpenViking's
// benchmark/RAG adapters write it (`docs/<folder>/*.md` and `qa.json`), and LoCoMo-format chats
// (`*.json`), converted here (locomo-markdown.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chatToMarkdown } from './locomo-markdown.js';

export interface RagDocument {
  /** The file's name inside the dataset's folder. */
  path: string;
  content: string;
}

export interface RagQuestion {
  id: string;
  question: string;
  evidence: string[];
  category: string;
  /** The document the question is about. */
  sampleId: string;
}

export interface RagDataset {
  name: string;
  /** The folder added with addResource: `viking://resources/<folder>`. */
  folder: string;
  documents: RagDocument[];
  questions: RagQuestion[];
  /** The document (its path) of each sample id. */
  documentOf: Map<string, string>;
}

/** A set as OpenViking's adapters prepare it: `docs/<folder>/*.md` and `qa.json` (`qas`). */
export function loadPrepared(dir: string, name = basename(dir)): RagDataset {
  const qa = JSON.parse(readFileSync(join(dir, 'qa.json'), 'utf8')) as {
    folder?: string;
    qas: Record<string, unknown>[];
  };
  const folder = qa.folder ?? only(readdirSync(join(dir, 'docs')), `${dir}/docs`);
  const files = readdirSync(join(dir, 'docs', folder))
    .filter((file) => file.endsWith('.md'))
    .sort();
  const documents = files.map((path) => ({
    path,
    content: readFileSync(join(dir, 'docs', folder, path), 'utf8'),
  }));
  const questions = qa.qas.map((q, i) => ({
    id: String(q.id ?? i + 1),
    question: String(q.question),
    evidence: ((q.evidence as unknown[] | undefined) ?? []).map(String),
    category: String(q.category ?? ''),
    sampleId: String(q.sample_id ?? ''),
  }));
  const documentOf = new Map<string, string>();
  const present = new Set(files);
  for (const { sampleId } of questions) {
    // OpenViking's adapters name a document after its sample, some with a `_doc` suffix.
    const path = [`${sampleId}.md`, `${sampleId}_doc.md`].find((candidate) => present.has(candidate));
    if (path) documentOf.set(sampleId, path);
  }
  return { name, folder, documents, questions, documentOf };
}

/** LoCoMo-format chats: one JSON file, or every JSON file of a folder, each one chat or a list. */
export function loadLocomo(path: string, name = basename(path, '.json')): RagDataset {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((file) => file.endsWith('.json'))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .map((file) => join(path, file))
    : [path];
  const dataset: RagDataset = {
    name,
    folder: `${name}_processed_docs`,
    documents: [],
    questions: [],
    documentOf: new Map(),
  };
  for (const file of files) {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const samples = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
    samples.forEach((sample, i) => {
      const fallback = samples.length > 1 ? `${basename(file, '.json')}-${i + 1}` : basename(file, '.json');
      const sampleId = typeof sample.sample_id === 'string' ? sample.sample_id : fallback;
      const chat = chatToMarkdown(sample, sampleId);
      dataset.documents.push(chat.document);
      dataset.questions.push(...chat.questions);
      dataset.documentOf.set(sampleId, chat.document.path);
    });
  }
  return dataset;
}

/** A dataset folder in either layout: `qa.json` means prepared, otherwise LoCoMo-format JSON files. */
export function loadDataset(path: string, name?: string): RagDataset {
  return existsSync(join(path, 'qa.json')) ? loadPrepared(path, name) : loadLocomo(path, name);
}

function only(entries: string[], where: string): string {
  if (entries.length !== 1) throw new Error(`${where} should hold one folder, not ${entries.length}`);
  return entries[0]!;
}
