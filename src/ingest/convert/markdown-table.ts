/**
 * The Markdown the Office converters write (docs/guide/documents.md): tables as pipe tables, whose
 * first row is the header, and paragraphs whose text cannot be mistaken for Markdown syntax.
 */

/**
 * A cell's text on one line: pipes escaped (and a backslash before one, which would otherwise
 * escape the escape), line breaks as `<br>`, runs of spaces as one.
 */
function cellText(text: string): string {
  return text
    .split(/\s*\n\s*/)
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('<br>')
    .replace(/\\(?=\|)/g, '\\\\')
    .replace(/\|/g, '\\|');
}

/**
 * A pipe table of `rows`, the first one its header; short rows are padded with empty cells. With a
 * `caption`, that goes on the line right above, so the table's title and units stay with it.
 *
 * @example
 * markdownTable([['Site', 'Staff'], ['Oslo', '41.5']], 'Table 2: Staff by site');
 * // 'Table 2: Staff by site\n| Site | Staff |\n| --- | --- |\n| Oslo | 41.5 |'
 */
export function markdownTable(rows: readonly (readonly string[])[], caption?: string): string {
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cellText(row[i] ?? '')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  const lines = [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)];
  const title = caption === undefined ? '' : plainParagraph(caption.replace(/\s+/g, ' '));
  return title === '' ? lines.join('\n') : `${title}\n${lines.join('\n')}`;
}

/**
 * Text as a Markdown paragraph that reads as itself: a leading `#`, `>`, list marker, table pipe
 * or rule that the text merely starts with is escaped, and blank lines inside it are closed up.
 *
 * @example
 * plainParagraph('# of staff: 12'); // '\\# of staff: 12'
 */
export function plainParagraph(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .filter((line) => line !== '')
    .map((line) =>
      line
        .replace(/^([#>|]|[-+*](?=\s|$)|=+$|-+$|[*_]{3,}$|(?:```|~~~))/, '\\$1')
        .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2'),
    )
    .join('\n');
}
