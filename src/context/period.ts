// Periods as questions and documents say them, brought to the same words: a question says "FY2018",
// "fiscal 2018", "FY 2018", "Q2 of FY2023", "Q22023" or "as of 1st July 2022"; a filing says "For
// the fiscal year ended December 31, 2018" or "For the quarterly period ended July 2, 2023". Both
// sides are written as `FY2018`, `Q2 FY2023` and `July 1 2022`, so that they meet as terms
// (docs/guide/retrieval.md, "What a document is about").

/** The months' names, in order. */
export const MONTHS: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';
/** `July 2, 2023` or `2 July 2023`; a date written in words, the way documents and questions write one. */
export const DATE = `(?:${MONTH}\\s+${ORDINAL},?\\s+(\\d{4})|${ORDINAL}\\s+${MONTH},?\\s+(\\d{4}))`;
const QUARTERS = ['first', 'second', 'third', 'fourth'];

/** A calendar date: month 1 to 12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function monthOf(name: string): number {
  return MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().replace('.', '').slice(0, 3))) + 1;
}

/**
 * The first date written in words in `text`, or undefined.
 *
 * @example
 * parseDate('For the quarterly period ended July 2, 2023'); // { year: 2023, month: 7, day: 2 }
 */
export function parseDate(text: string): CalendarDate | undefined {
  const match = new RegExp(DATE, 'i').exec(text);
  if (!match) return undefined;
  const [, m1, d1, y1, d2, m2, y2] = match;
  return m1
    ? { year: Number(y1), month: monthOf(m1), day: Number(d1) }
    : { year: Number(y2), month: monthOf(m2!), day: Number(d2) };
}

/** `July 1 2022`: a date's words (its month stems as the question's does). */
export function dateWords(date: CalendarDate): string {
  const month = MONTHS[date.month - 1]!;
  return `${month[0]!.toUpperCase()}${month.slice(1)} ${date.day} ${date.year}`;
}

/**
 * The fiscal year a period ending on `end` belongs to, `quartersLeft` quarters before that year
 * ends: the year the fiscal year ends in. A period that ends in a month's first week (52–53-week
 * years: "July 2, 2023", "February 3, 2018") is counted as ending with the month before.
 *
 * @example
 * fiscalYearOf({ year: 2022, month: 12, day: 31 }, 2); // 2023: its second quarter ended in December
 */
export function fiscalYearOf(end: CalendarDate, quartersLeft = 0): number {
  const month = end.day <= 7 ? end.month - 1 : end.month;
  return end.year + Math.floor((month - 1 + 3 * quartersLeft) / 12);
}

const fullYear = (year: string): number => (year.length === 2 ? 2000 + Number(year) : Number(year));

/**
 * The periods a question names, in the words documents are given for theirs (`FY2018`, `Q2`,
 * `July 1 2022`); none when it names none.
 *
 * @example
 * periodWords('restructuring liability as of Q2 of FY2023'); // ['Q2', 'FY2023']
 * periodWords('capex in fiscal 2018'); // ['FY2018']
 */
export function periodWords(text: string): string[] {
  const words = new Set<string>();
  const add = (word: string) => words.add(word);
  for (const m of text.matchAll(/\b(?:FY|fiscal(?:\s+year)?)\s*['’]?\s*(\d{4}|\d{2})(?![\d,])/gi)) {
    add(`FY${fullYear(m[1]!)}`);
  }
  for (const m of text.matchAll(
    /\bQ([1-4])(?=\D|\d{4}(?!\d)|$)(?:\s*(?:['’,]|of)?\s*(?:FY|fiscal(?:\s+year)?)?\s*['’]?\s*(\d{4}))?/gi,
  )) {
    add(`Q${m[1]}`);
    if (m[2]) add(/FY|fiscal/i.test(m[0]) ? `FY${m[2]}` : m[2]);
  }
  for (const m of text.matchAll(/\b(?:FY\s?)?(\d{4})\s?Q([1-4])\b/gi)) {
    add(`Q${m[2]}`);
    add(`FY${m[1]}`);
  }
  for (const m of text.matchAll(/\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\b/gi)) {
    add(`Q${QUARTERS.indexOf(m[1]!.toLowerCase()) + 1}`);
  }
  for (const m of text.matchAll(new RegExp(DATE, 'gi'))) {
    const date = parseDate(m[0]);
    if (date) add(dateWords(date));
  }
  return [...words];
}
