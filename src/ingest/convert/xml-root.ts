/**
 * A Word part's root element, cut out of its text before mammoth parses it with xmldom
 * (docs/guide/documents.md): xmldom scans a document's top-level nodes again for each one it adds,
 * so a part with many comments or stray elements beside its root cost minutes to parse, where
 * htmlparser2 finds the root in one pass. (ooxml.ts parses the other converters' parts inside a
 * wrapper element instead.)
 */
import { Parser } from 'htmlparser2';

/**
 * The text of the first element of `xml`, from its start tag to its end tag (or to the end when it
 * is not closed); what comes before or after it (declaration, doctype, comments, stray elements) is
 * left out. Text without an element comes back as it is, for the XML parser to refuse.
 *
 * @example
 * rootElementText('<?xml version="1.0"?><a><b/></a><!-- x -->'); // '<a><b/></a>'
 */
export function rootElementText(xml: string): string {
  let depth = 0;
  let start = -1;
  let end = -1;
  const parser = new Parser(
    {
      // The indexes are searched from, not taken: right after a processing instruction,
      // htmlparser2 reports a tag one character early.
      onopentag() {
        if (depth++ === 0 && start < 0) start = xml.indexOf('<', parser.startIndex);
      },
      onclosetag() {
        if (--depth !== 0 || end >= 0) return;
        const close = xml.indexOf('>', parser.endIndex);
        end = close < 0 ? xml.length : close + 1;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  if (start < 0) return xml;
  return xml.slice(start, end < 0 ? xml.length : end);
}
