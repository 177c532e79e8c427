/**
 * L0/L1 without a model: the title, the first informative sentence, the outline, the leading
 * sentence of each section and the salient terms. Deterministic, so re-ingesting unchanged text
 * gives identical summaries, and fast enough to run on every node of a large folder.
 */

import { clampText, type Summarizer, type Summary, type SummaryInput } from '../../context/summarize.js';
import { firstSentence, type ProseSection, proseOf, sentencesOf } from './prose.js';
import { codeKeywords, salientTerms } from './salient-terms.js';

/**
 * About 300 words: the "few hundred words" of an L1 (docs/guide/retrieval.md, "Layers and what is
 * embedded"), and a size that embeds as one chunk.
 */
const L1_WORDS = 300;

const lower = (text: string) => text.toLowerCase();

/** `title — sentence`, or just the sentence when it already starts with the title. */
function lead(title: string, sentence: string): string {
  if (sentence === '') return title;
  return lower(sentence).startsWith(lower(title)) ? sentence : `${title} — ${sentence}`;
}

/**
 * What a child's L0 says beyond its title and topic list (both shown separately by the parent),
 * so a directory's summaries do not repeat child names.
 */
function gist(child: { title: string; l0: string }): string {
  const prefix = `${child.title} — `;
  const body = child.l0.startsWith(prefix) ? child.l0.slice(prefix.length) : child.l0;
  return body.replace(/\s*Covers: .*$/, '');
}

/** A description as a sentence: `Remove a package` → `Remove a package.`; `''` when there is none. */
function sentenceOf(description: string | undefined): string {
  const text = description?.trim() ?? '';
  return text === '' || /[.!?…:]$/.test(text) ? text : `${text}.`;
}

function commaList(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** Adds lines until the word budget is spent; says how many were left out rather than cutting silently. */
function withinBudget(lines: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const words = line.split(/\s+/).length;
    if (used + words > budget && kept.length > 0) {
      kept.push(`- … and ${lines.length - i} more`);
      break;
    }
    kept.push(line);
    used += words;
  }
  return kept;
}

function l0Of(input: SummaryInput, prose: readonly ProseSection[]): string {
  const sentence = firstSentence(prose.flatMap((s) => s.paragraphs));
  const children = input.children ?? [];
  const headings = [...new Set(input.headings)].filter((h) => h !== input.title);
  const topics = commaList(headings.length > 0 ? headings : children.map((c) => c.title), 6);
  // The author's own description says best what the document is about.
  const main = sentenceOf(input.description) || sentence || (children[0] ? gist(children[0]) : '');
  if (main === '') return clampText(topics ? `${input.title} — covers ${topics}.` : input.title);
  return clampText(`${lead(input.title, main)}${topics ? ` Covers: ${topics}.` : ''}`);
}

/** The text whose salient terms describe the node: prose for documents, everything for code and data. */
function termTextOf(input: SummaryInput, prose: readonly ProseSection[]): string {
  if (input.children && input.children.length > 0) return input.children.map(gist).join('\n\n');
  if (input.format === 'code' || input.format === 'json') return input.text;
  return prose.flatMap((s) => s.paragraphs).join('\n\n');
}

function l1Of(input: SummaryInput, prose: readonly ProseSection[]): string {
  const leading = prose.flatMap((s) => s.paragraphs).flatMap(sentencesOf);
  const described = sentenceOf(input.description);
  const intro = (described ? [described, ...leading] : leading).slice(0, 3).join(' ');
  const parts = [`# ${input.title}`];
  if (intro !== '') parts.push(clampText(intro, 600));
  const budget = L1_WORDS - parts.join(' ').split(/\s+/).length;
  const children = input.children ?? [];
  const entries =
    children.length > 0
      ? children.map((c) => `- ${c.title}: ${gist(c)}`)
      : prose
          .filter((s) => s.heading !== '')
          .map((s) => {
            const sentence = firstSentence(s.paragraphs);
            return sentence ? `- ${s.heading}: ${clampText(sentence, 200)}` : `- ${s.heading}`;
          });
  // Formats without prose sections (code, JSON) still have an outline: their headings.
  const outline = entries.length > 0 ? entries : input.headings.map((h) => `- ${h}`);
  if (outline.length > 0) {
    // 20 words stay for the key terms below.
    const kept = withinBudget(outline, Math.max(budget - 20, 40));
    parts.push(`## ${children.length > 0 ? 'Contents' : 'Sections'}\n${kept.join('\n')}`);
  }
  const ignore = input.format === 'code' ? codeKeywords : undefined;
  const terms = salientTerms(termTextOf(input, prose), [input.title, ...input.headings], 12, ignore);
  if (terms.length > 0) parts.push(`## Key terms\n${terms.join(', ')}`);
  return parts.join('\n\n');
}

/**
 * The summariser used without an LLM. L0: the title, the document's description or else its first
 * informative sentence, and what the node covers, at most 256 characters, cut at a word. L1: the title, leading sentences, an outline
 * (headings with their first sentence, or children with their L0) and salient terms; about 300 words.
 *
 * @example
 * const { l0, l1 } = await extractiveSummarizer.summarize({ title: 'Guide', headings: ['Install'], text });
 */
export const extractiveSummarizer: Summarizer = {
  kind: 'extractive',
  async summarize(input: SummaryInput): Promise<Summary> {
    const prose = proseOf(input.text, input.format);
    return { l0: l0Of(input, prose), l1: l1Of(input, prose) };
  },
};
