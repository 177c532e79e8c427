/**
 * A string is content, never a location (docs/guide/retrieval.md, "Adding from disk"); but a string
 * that looks like a path and names a file or folder that exists was almost surely meant as one, and
 * indexing the path itself as a document would fail silently. Such a string is refused instead.
 */

import { hasLocalFiles, loadLocalFiles } from '../env/local-files.js';
import { LongshipError } from '../errors.js';

/** Longer than any path a caller would type; longer strings are content without asking the disk. */
const longestPath = 1024;

/**
 * Whether `text` could be a path: one short line that starts with `./`, `../`, `/`, `~` or a drive
 * letter, or ends with a file extension.
 *
 * @example
 * looksLikePath('./docs/ws.md'); // true
 * looksLikePath('The garden needs water.'); // false
 */
export function looksLikePath(text: string): boolean {
  if (text === '' || text.length > longestPath || /[\r\n]/.test(text)) return false;
  return /^(\.{1,2}[/\\]|[/\\~]|[A-Za-z]:[/\\])/.test(text) || /\.[A-Za-z0-9]{1,10}$/.test(text);
}

/**
 * Throws `INVALID_ARGUMENT` when `text` looks like a path and a file or folder of that name exists;
 * where there is no file system (a browser, a worker of one) it never does.
 */
export async function refuseExistingPath(text: string): Promise<void> {
  if (!looksLikePath(text) || !hasLocalFiles()) return;
  const absolute = await (await loadLocalFiles()).existing(text);
  if (absolute === undefined) return;
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `${JSON.stringify(text)} names a file or folder on disk, but a string is content, never a location; ` +
      `to add it, pass addResource({ path: ${JSON.stringify(absolute)} }) or a file: URL`,
  );
}
