/** A GitHub-flavoured markdown table; `align` per column: 'l' or 'r' (default 'r' after the first). */
export function markdownTable(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const alignment = header.map((_, i) => align?.[i] ?? (i === 0 ? 'l' : 'r'));
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  const rule = `|${alignment.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number for a table cell: fixed decimals, or an em dash for null. */
export function cell(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}
