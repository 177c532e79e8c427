/**
 * What a document is about, read from its own front (its title, its first headings and first pages),
 * never from its file name: who or what (a company, a course, the people of a chat), when (a fiscal
 * year, a quarter, a date, a term) and what kind (an annual report, a Form 8-K, a syllabus, an
 * agreement). Near-identical documents (two years of one company's annual report) differ in little
 * else, and their sections never say it (docs/guide/retrieval.md, "What a document is about").
 */
import {
  type CalendarDate,
  DATE,
  dateWords,
  fiscalYearOf,
  parseDate,
  periodWords,
} from '../../context/period.js';

/** A document's identity; each list is empty when its front says nothing of that. */
export interface DocumentIdentity {
  /** Who or what it is about: `3M COMPANY`; a course code; a chat's speakers. */
  entity: string[];
  /** When: `FY2018`, `Q2 FY2023`, `July 1 2022`, `Fall 2022`. */
  period: string[];
  /** What kind: `Form 10-K`, `annual report`, `syllabus`. */
  kind: string[];
}

/** What is read: a cover page and the start of what follows it. */
const FRONT_CHARS = 6000;
/** Where the organisation a document is about is counted: the first 50 or so of a filing's pages. */
const BODY_CHARS = 200000;
/** Where a quarterly report says whether its period is the second or third quarter ("six months ended"). */
const QUARTER_CHARS = 20000;

// Legal forms of an organisation: the name before one is an entity ("3M COMPANY", "PepsiCo, Inc.",
// "Acme Widgets Ltd"). A defined term ("the Company") has no capitalised word before it.
const LEGAL_FORM =
  /,?\s+(incorporated(?!\s+(?:by|in|into|herein)\b)|inc|corporation|corp|company|co|plc|limited|ltd|llc|llp|l\.p|n\.v|s\.a|ag|gmbh)\b\.?/gi;
const NAME_WORD = /^(?:[\p{Lu}\d][\p{L}\d&'’.-]*|&)$/u;

// Kinds of document a front says it is, in the words people ask for them with.
const KINDS: readonly [RegExp, string][] = [
  [/\bannual report\b/i, 'annual report'],
  [/\bquarterly report\b/i, 'quarterly report'],
  [/\bcurrent report\b/i, 'current report'],
  [/\b(?:press|news|earnings) release\b|\breports?\b[^.\n]{0,60}\bresults\b/i, 'earnings release'],
  [/\bsyllabus\b/i, 'syllabus'],
  [/\bcourse (?:outline|overview|description)\b/i, 'course'],
  [/\b(?:agreement|contract)\b/i, 'agreement'],
  [/\b(?:user|owner'?s|reference) (?:manual|guide)\b/i, 'manual'],
  [/\bminutes of\b/i, 'minutes'],
  [/\b(?:chat|conversation) history\b|\btranscript\b/i, 'conversation'],
];

function frontOf(text: string, chars: number): string {
  return text.slice(0, chars).replace(/<!--[^>]*-->/g, ' ');
}

/** How often `name` occurs in `text`, as whole words, whatever the case. */
function mentions(text: string, name: string): number {
  const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (escaped === '') return 0;
  return text.match(new RegExp(`(?<![\\p{L}\\d])${escaped}(?![\\p{L}\\d])`, 'giu'))?.length ?? 0;
}

/** Organisation names before a legal form in the headings and the front, the most mentioned in the body first. */
function organisations(front: string, headings: readonly string[], body: string): string[] {
  const counts = new Map<string, { name: string; count: number; at: number }>();
  const scan = (text: string, offset: number) => {
    for (const m of text.matchAll(LEGAL_FORM)) {
      const line = text.lastIndexOf('\n', m.index - 1) + 1;
      const words = text
        .slice(Math.max(line, m.index - 80), m.index)
        .split(/\s+/)
        .filter(Boolean);
      const name: string[] = [];
      while (name.length < 4 && words.length > 0 && NAME_WORD.test(words.at(-1)!.replace(/,$/, ''))) {
        const word = words.pop()!;
        if (name.length > 0 && /[,;:]$/.test(word)) break;
        name.unshift(word.replace(/,$/, ''));
      }
      while (name[0] === '&' || /^the$/i.test(name[0] ?? '')) name.shift();
      if (name.length === 0 || /^\d+$/.test(name.join(''))) continue;
      const full = `${name.join(' ')} ${m[1]}`;
      const key = full.toLowerCase().replace(/[^\p{L}\d]+/gu, ' ');
      const known = counts.get(key);
      if (known) known.count++;
      else counts.set(key, { name: full, count: 1, at: offset + m.index });
    }
  };
  scan(headings.join('\n'), -1e6);
  scan(front, 0);
  // The organisation the document is about is the one it goes on to name most, not the stock
  // exchange or the agent its cover page lists.
  for (const entry of counts.values()) entry.count += mentions(body, entry.name.replace(LEGAL_FORM, ''));
  return [...counts.values()].sort((a, b) => b.count - a.count || a.at - b.at).map((e) => e.name);
}

/** The subject of a headline ("Amcor reports fiscal 2023 results"). */
function headlineSubject(front: string): string | undefined {
  const m =
    /^\s*([\p{Lu}][\p{L}\d&'’.-]*(?:\s+[\p{Lu}&][\p{L}\d&'’.-]*){0,3})\s+(?:reports|announces|reported|announced)\b/mu.exec(
      front,
    );
  return m?.[1];
}

/** A chat's speakers (`**Name**: …` or `Name: …` lines), most frequent first. */
function speakers(front: string): string[] {
  const counts = new Map<string, number>();
  for (const m of front.matchAll(/^(?:\*\*([^*\n]{1,40})\*\*|([\p{Lu}][\p{L}'’. -]{0,30})):\s/gmu)) {
    const name = (m[1] ?? m[2]!).trim();
    if (/^(date|summary|time|note|subject|from|to|re)$/i.test(name)) continue;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()]
    .filter(([, count]) => count >= 3)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name]) => name);
}

/** A course code in the title or the first headings ("CHEM 122", "CS-101"). */
function courseCode(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const m = /\b([A-Z]{2,5})\s?-?(\d{3,4}[A-Z]?)\b/.exec(line);
    if (m && !/^(FORM|PAGE|ROOM|ITEM|NOTE)$/.test(m[1]!)) return `${m[1]} ${m[2]}`;
  }
  return undefined;
}

function entitiesOf(
  front: string,
  head: readonly string[],
  kinds: readonly string[],
  body: string,
): string[] {
  // A chat is about its people: the organisations they mention in passing are not what it is.
  if (kinds.includes('conversation')) return speakers(front);
  // A syllabus is about its course: the publishers of its readings are not what it is.
  if (kinds.includes('syllabus') || kinds.includes('course')) {
    const code = courseCode(head);
    return code ? [code] : [];
  }
  const found: string[] = [];
  const subject = headlineSubject(front);
  const named = organisations(front, head, body);
  if (named[0]) found.push(named[0]);
  if (subject && !found.some((f) => f.toLowerCase().startsWith(subject.toLowerCase()))) found.push(subject);
  return found;
}

/** The quarter a quarterly period ending on `end` is, by the longer periods reported beside it. */
function quarterOf(text: string, end: CalendarDate): number {
  const window = text.slice(0, QUARTER_CHARS);
  const month = new RegExp(`\\b(six|nine) months ended\\s+${dateWords(end).split(' ')[0]}`, 'i').exec(window);
  if (month) return month[1]!.toLowerCase() === 'six' ? 2 : 3;
  return /\bnine months ended\b/i.test(window) ? 3 : /\bsix months ended\b/i.test(window) ? 2 : 1;
}

function periodsOf(front: string, text: string): string[] {
  const periods: string[] = [];
  const ended = new RegExp(
    `\\b(fiscal year|year|quarterly period|quarter|three months|period)\\s+ended\\s*:?\\s*${DATE}`,
    'i',
  ).exec(front);
  const end = ended ? parseDate(ended[0]) : undefined;
  if (ended && end) {
    const span = ended[1]!.toLowerCase();
    if (span.includes('year')) periods.push(`FY${fiscalYearOf(end)}`);
    else if (span !== 'period') {
      const quarter = quarterOf(text, end);
      periods.push(`Q${quarter} FY${fiscalYearOf(end, 4 - quarter)}`);
    }
    periods.push(dateWords(end));
  }
  // A report's date where it covers no period (a current report, a letter, a chat's first session).
  const dated = ended
    ? null
    : new RegExp(
        `(?:\\b(?:date of report|dated|effective date|effective as of)\\b|^date:)[^\\n]{0,60}?${DATE}`,
        'im',
      ).exec(front);
  const date = dated ? parseDate(dated[0]) : undefined;
  if (date) periods.push(dateWords(date));
  const term = /\b(Spring|Summer|Fall|Autumn|Winter)\s+(?:term\s+|semester\s+|quarter\s+)?(\d{4})\b/i.exec(
    front,
  );
  if (term) periods.push(`${term[1]} ${term[2]}`);
  // A period the front names the way questions do ("fiscal 2023 results", "second quarter 2023").
  const said =
    /^.*\b(?:fiscal(?:\s+year)?\s+\d{4}|FY\s?\d{2,4}|(?:first|second|third|fourth)\s+quarter\b.*\d{4}|Q[1-4]\s*\d{4}).*$/im.exec(
      front,
    );
  const first = said ? periodWords(said[0])[0] : undefined;
  if (first) periods.push(first);
  return [...new Set(periods.filter((p) => p !== ''))].slice(0, 3);
}

/**
 * Reads a document's identity from its title, its headings (the first ones are its cover) and the
 * start of its text. Never from a file name: a file named `report.md` gets the same identity.
 *
 * @example
 * readIdentity({ title: 'FORM 10-K', headings: ['ACME WIDGETS CORPORATION'], text: '… For the fiscal year ended December 31, 2018 …' });
 * // { entity: ['ACME WIDGETS CORPORATION'], period: ['FY2018', 'December 31 2018'], kind: ['Form 10-K', 'annual report'] }
 */
export function readIdentity(input: {
  title: string;
  headings: readonly string[];
  text: string;
}): DocumentIdentity {
  const front = frontOf(input.text, FRONT_CHARS);
  const head = [input.title, ...input.headings.slice(0, 8)];
  const opening = [...head, front.slice(0, 1500)].join('\n');
  const kind: string[] = [];
  const form = /\bform\s+(\d{1,2}-[A-Z]{1,2}|[A-Z]{1,2}-\d{1,2})\b/i.exec(opening);
  if (form) kind.push(`Form ${form[1]!.toUpperCase()}`);
  for (const [pattern, name] of KINDS) if (pattern.test(opening)) kind.push(name);
  return {
    entity: entitiesOf(front, head, kind, input.text.slice(0, BODY_CHARS)),
    period: periodsOf(front, input.text),
    kind: [...new Set(kind)].slice(0, 3),
  };
}

/**
 * The identity as one line, what the document's L0 and L1 start from and its place is read from:
 * `ACME WIDGETS CORPORATION · Form 10-K, annual report · FY2018, December 31 2018`; `''` when the
 * front says nothing.
 */
export function identityLine(identity: DocumentIdentity): string {
  return [identity.entity, identity.kind, identity.period]
    .filter((part) => part.length > 0)
    .map((part) => part.join(', '))
    .join(' · ');
}
