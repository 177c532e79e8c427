// ObliQA as a viking:// tree: each of the 40 regulatory documents a directory, its PassageIDs
// (`14.2.3.Guidance.10.`) giving chapters and sections as directories below it, and each passage a
// file. Directory summaries are the extractive L0/L1 the ingest pipeline writes without an LLM.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { clampText } from '../../src/context/summarize.js';
import { extractiveSummarizer } from '../../src/ingest/summary/extractive-summarizer.js';
import { readZip } from './zip.js';

export interface Passage {
  doc: number;
  id: string;
  text: string;
}

export interface Question {
  id: string;
  text: string;
  /** `doc|PassageID` of each relevant passage. */
  gold: string[];
}

export interface BenchNode {
  uri: string;
  parent: string | null;
  name: string;
  kind: 'dir' | 'file';
  title: string;
  /** Titles of the directories above, document first. */
  headings: string[];
  /** Files: the passage. */
  text: string;
  l0: string;
  l1: string;
  /** Files: `doc|PassageID`. */
  goldKey?: string;
}

export const goldKey = (doc: number, id: string) => `${doc}|${id}`;

export function loadObliqa(dir: string): { passages: Passage[]; questions: Question[] } {
  return loadObliqaFiles(join(dir, 'StructuredRegulatoryDocuments.zip'), join(dir, 'ObliQA_dev.json'));
}

/** The passages from the ZIP archive or a folder of its JSON files, and the questions of one split. */
export function loadObliqaFiles(
  passagesPath: string,
  questionsPath: string,
): { passages: Passage[]; questions: Question[] } {
  const files = statSync(passagesPath).isDirectory()
    ? readdirSync(passagesPath, { recursive: true, encoding: 'utf8' }).map((name) => ({
        name,
        bytes: () => readFileSync(join(passagesPath, name)),
      }))
    : readZip(readFileSync(passagesPath)).map((entry) => ({ name: entry.name, bytes: () => entry.bytes }));
  const passages: Passage[] = [];
  const decoder = new TextDecoder();
  for (const file of files) {
    if (file.name.includes('__MACOSX') || !file.name.endsWith('.json')) continue;
    const rows = JSON.parse(decoder.decode(file.bytes())) as {
      DocumentID: number;
      PassageID: string;
      Passage: string;
    }[];
    for (const row of rows) passages.push({ doc: row.DocumentID, id: row.PassageID, text: row.Passage });
  }
  // Stable: passages keep their order within a document.
  passages.sort((a, b) => a.doc - b.doc);
  const raw = JSON.parse(readFileSync(questionsPath, 'utf8')) as {
    QuestionID: string;
    Question: string;
    Passages: { DocumentID: number; PassageID: string }[];
  }[];
  const questions = raw.map((q) => ({
    id: q.QuestionID,
    text: q.Question,
    gold: [...new Set(q.Passages.map((p) => goldKey(p.DocumentID, p.PassageID)))],
  }));
  return { passages, questions };
}

const segmentsOf = (id: string) =>
  id
    .split('.')
    .map((s) => s.trim())
    .filter((s) => s !== '');
/** A URI segment: no `/`, `\`, `?`, `#`, `%` or control characters. */
const safe = (name: string) => name.replace(/[/\\?#%\p{Cc}]/gu, '_').slice(0, 200);

/**
 * The tree, parents before children. `depth` is how many PassageID segments become directories
 * below the document (2: chapter and section; deeper passages are files in their section).
 */
export async function buildHierarchy(passages: readonly Passage[], depth: number): Promise<BenchNode[]> {
  const root = 'viking://resources/obliqa';
  const dirs = new Map<string, BenchNode>();
  const files: BenchNode[] = [];
  const children = new Map<string, BenchNode[]>();
  const addDir = (uri: string, parent: string | null, name: string, title: string) => {
    let dir = dirs.get(uri);
    if (!dir) {
      dir = { uri, parent, name, kind: 'dir', title, headings: [], text: '', l0: '', l1: '' };
      dirs.set(uri, dir);
      if (parent) children.set(parent, [...(children.get(parent) ?? []), dir]);
    }
    return dir;
  };
  addDir('viking://resources', null, 'resources', 'Resources');
  addDir(root, 'viking://resources', 'obliqa', 'ADGM regulatory documents');
  // A passage whose ID is a directory's prefix ("1.1" → "Jurisdiction") names that directory.
  const headingOf = new Map<string, string>();
  for (const p of passages) {
    const text = p.text.trim();
    if (text !== '' && text.length <= 120) headingOf.set(`${p.doc}|${segmentsOf(p.id).join('.')}`, text);
  }
  const taken = new Set<string>();
  for (const p of passages) {
    if (p.text.trim() === '') continue;
    const segments = segmentsOf(p.id);
    let parent = addDir(`${root}/doc-${p.doc}`, root, `doc-${p.doc}`, `Document ${p.doc}`).uri;
    for (let k = 1; k <= Math.min(depth, segments.length - 1); k++) {
      const prefix = segments.slice(0, k).join('.');
      const title = headingOf.get(`${p.doc}|${prefix}`) ?? `Section ${prefix}`;
      parent = addDir(`${parent}/${safe(prefix)}`, parent, safe(prefix), `${prefix} ${title}`).uri;
    }
    let name = `${safe(segments.join('.') || p.id)}.md`;
    for (let n = 2; taken.has(`${parent}/${name}`); n++) name = `${safe(segments.join('.'))}~${n}.md`;
    taken.add(`${parent}/${name}`);
    const file: BenchNode = {
      uri: `${parent}/${name}`,
      parent,
      name,
      kind: 'file',
      title: p.id,
      headings: [],
      text: p.text,
      l0: '',
      l1: '',
      goldKey: goldKey(p.doc, p.id),
    };
    files.push(file);
    children.set(parent, [...(children.get(parent) ?? []), file]);
  }
  // Headings top-down, then summaries bottom-up, as ingestion computes them.
  const ordered = [...dirs.values()].sort((a, b) => a.uri.split('/').length - b.uri.split('/').length);
  const setHeadings = (node: BenchNode) => {
    const parent = node.parent ? dirs.get(node.parent) : undefined;
    node.headings = parent && parent.uri !== 'viking://resources' ? [...parent.headings, parent.title] : [];
  };
  for (const dir of ordered) setHeadings(dir);
  for (const file of files) setHeadings(file);
  for (const file of files) {
    const summary = await extractiveSummarizer.summarize({
      title: file.title,
      headings: file.headings,
      text: file.text,
    });
    file.l0 = summary.l0;
    file.l1 = summary.l1;
  }
  for (const dir of ordered.reverse()) {
    const kids = (children.get(dir.uri) ?? []).map((c) => ({ title: c.title, l0: c.l0 }));
    const summary = await extractiveSummarizer.summarize({
      title: dir.title,
      headings: dir.headings,
      text: '',
      children: kids,
    });
    dir.l0 = clampText(summary.l0);
    dir.l1 = summary.l1;
  }
  const nodes = [...dirs.values(), ...files];
  return nodes.sort((a, b) => a.uri.split('/').length - b.uri.split('/').length);
}

/** Every passage text below a directory, for the "subtree" lexical representation. */
export function subtreeText(nodes: readonly BenchNode[]): Map<string, string> {
  const parts = new Map<string, string[]>();
  const byUri = new Map(nodes.map((n) => [n.uri, n]));
  for (const node of nodes) {
    if (node.kind !== 'file') continue;
    for (let up = node.parent; up; up = byUri.get(up)?.parent ?? null) {
      const list = parts.get(up) ?? [];
      list.push(node.text);
      parts.set(up, list);
    }
  }
  return new Map([...parts].map(([uri, list]) => [uri, list.join('\n')]));
}
