/**
 * Source code to sections, one per top-level declaration, found by regular expressions on lines
 * that start at column 0. No grammar per language: this only has to cut files at sensible places
 * for retrieval, and a missed declaration just stays in the section above it.
 */
import { type DocumentTree, type FlatSection, nestSections } from './document.js';
import { extensionOf } from './format.js';

const MODIFIERS = String.raw`(?:(?:export|default|declare|abstract|async|public|private|protected|internal|static|final|sealed|open|data|inline|override|partial|unsafe|extern(?:\s+"[^"]*")?|pub(?:\([^)]*\))?|const(?=\s+(?:fn|enum)\b))\s+)*`;
const KEYWORDS = String.raw`function\*?|class|interface|type|enum|struct|union|trait|impl|fn|func|def|module|namespace|object|record|protocol|extension|const|let|var|mod|macro_rules!`;
/** `keyword [<generics>] [(receiver)] name`: covers Go methods, Rust impls, JS generators. */
const DECLARATION = new RegExp(
  String.raw`^${MODIFIERS}(${KEYWORDS})(?![\w$])\s*(?:<[^>]*>\s*)?(?:\([^)]*\)\s*)?\*?\s*([A-Za-z_$][\w$]*)`,
);
/** C-family definitions have no keyword: `type name(…)` at column 0, not ending in `;` (a prototype). */
const C_FUNCTION =
  /^(?!(?:if|for|while|switch|return|else|do|case|typedef)\b)[A-Za-z_][\w*&:<>,~]*(?:\s+[\w*&:<>,~]+)*\s+[*&]*([A-Za-z_~][\w:~]*)\s*\([^;=]*$/;
const C_FAMILY = new Set(['c', 'h', 'cc', 'cpp', 'cxx', 'hh', 'hpp', 'hxx', 'm', 'mm', 'cs']);
/** Comments, decorators and attributes directly above a declaration belong to it. */
const ATTACHED = /^\s*(?:\/\/|\/\*|\*|#(?:\s|!|\[|$)|--|@[\w.]|;;|%)/;

/** The heading of a declaration line, or undefined when the line starts none. */
function declarationAt(line: string, cFamily: boolean): string | undefined {
  const match = DECLARATION.exec(line);
  if (match) return `${match[1]!.replace(/\*$/, '')} ${match[2]}`;
  if (cFamily) {
    const name = C_FUNCTION.exec(line)?.[1];
    if (name) return `${name}()`;
  }
  return undefined;
}

/**
 * Parses source code into one level-1 section per top-level declaration (`function parseUri`,
 * `class Store`, `def main`), each with the comments and decorators just above it. What precedes
 * the first declaration (imports, a file comment) is the lead. The title is `''`: the file name
 * says more than any line of code.
 *
 * @example
 * parseCode('import x from "y";\n\nexport function a() {}\n', 'a.ts').sections[0]!.heading; // 'function a'
 */
export function parseCode(content: string, path = ''): DocumentTree {
  const lines = content.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const cFamily = C_FAMILY.has(extensionOf(path));
  const starts: { line: number; heading: string }[] = [];
  lines.forEach((line, i) => {
    const heading = declarationAt(line, cFamily);
    if (heading === undefined) return;
    let start = i;
    while (
      start > 0 &&
      (starts[starts.length - 1]?.line ?? -1) < start - 1 &&
      ATTACHED.test(lines[start - 1]!)
    )
      start--;
    starts.push({ line: start, heading });
  });
  const slice = (from: number, to: number) => lines.slice(from, to).join('');
  const flat: FlatSection[] = starts.map((s, k) => ({
    heading: s.heading,
    level: 1,
    text: slice(s.line, starts[k + 1]?.line ?? lines.length),
  }));
  return {
    title: '',
    format: 'code',
    lead: slice(0, starts[0]?.line ?? lines.length),
    sections: nestSections(flat),
  };
}
