/**
 * Inline Markdown to plain text, for headings and summaries. Regex-level on purpose: it only has to
 * make text readable and searchable, and stored content (L2) always keeps the original markup.
 */

const RULES: [RegExp, string][] = [
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'], // image → alt text
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'], // inline link → its text
  [/\[([^\]]+)\]\[[^\]]*\]/g, '$1'], // reference link → its text
  [/<((?:https?|mailto):[^>\s]+)>/g, '$1'], // autolink
  [/<\/?[A-Za-z][^>]*>/g, ''], // inline HTML tag
  [/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, '$2'], // code span
  [/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2'], // strong
  [/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, '$1$2'], // emphasis with *
  // `_` only at word boundaries, so snake_case_names survive.
  [/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2'],
  [/~~(?=\S)([\s\S]*?\S)~~/g, '$1'], // strikethrough
  [/\\([!-/:-@[-`{-~])/g, '$1'], // backslash escape
];

/**
 * The text a reader sees in a line of inline Markdown, whitespace collapsed.
 *
 * @example
 * inlineText('The **`parseUri`** [function](#api)'); // 'The parseUri function'
 */
export function inlineText(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}
