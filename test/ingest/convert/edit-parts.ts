// An Office fixture with some of its parts rewritten: for files no writer makes, but a damaged or
// hostile one may be (a part listed twice, a shared string repeated in every cell).
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/**
 * `bytes` zipped anew with `edit`'s parts: each entry replaces (or adds) the part at its path,
 * given the part's current text (undefined when there is none).
 *
 * @example
 * editParts(makeXlsx(), { 'xl/workbook.xml': (xml) => xml!.replace('</sheets>', '<sheet …/></sheets>') });
 */
export function editParts(
  bytes: Uint8Array,
  edit: Record<string, (text: string | undefined) => string>,
): Uint8Array {
  const parts = unzipSync(bytes);
  for (const [path, rewrite] of Object.entries(edit)) {
    const part = parts[path];
    parts[path] = strToU8(rewrite(part === undefined ? undefined : strFromU8(part)));
  }
  return zipSync(parts);
}
