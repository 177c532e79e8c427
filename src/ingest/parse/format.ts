/** Which parser reads a document: by file extension first, then MIME type, then by sniffing the text. */
import type { Format } from '../../context/summarize.js';

const MARKDOWN = ['md', 'markdown', 'mdx', 'mdown', 'mkd', 'mkdn'];
const HTML = ['html', 'htm', 'xhtml'];
const JSON_EXT = ['json', 'ipynb', 'geojson', 'webmanifest'];
/** Source files split by top-level declarations. Config and data files (yaml, toml, csv) stay text. */
// biome-ignore format: a word list reads better packed
const CODE = [
  'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'py', 'pyi', 'rs', 'go', 'java', 'kt', 'kts',
  'scala', 'groovy', 'c', 'h', 'cc', 'cpp', 'cxx', 'hh', 'hpp', 'hxx', 'cs', 'fs', 'swift', 'm', 'mm',
  'rb', 'php', 'pl', 'lua', 'r', 'jl', 'dart', 'zig', 'nim', 'ex', 'exs', 'erl', 'hs', 'ml', 'clj', 'sh',
  'bash', 'zsh', 'fish', 'ps1', 'sql', 'vue', 'svelte', 'css', 'scss', 'less', 'proto', 'sol',
];

/** Named so that sniffing never turns a `.txt` or `.yaml` with a `# comment` line into Markdown. */
// biome-ignore format: a word list reads better packed
const TEXT = [
  'txt', 'text', 'log', 'csv', 'tsv', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'xml', 'rst', 'adoc',
  'tex',
];

const byExtension = new Map<string, Format>([
  ...TEXT.map((e) => [e, 'text'] as const),
  ...MARKDOWN.map((e) => [e, 'markdown'] as const),
  ...HTML.map((e) => [e, 'html'] as const),
  ...JSON_EXT.map((e) => [e, 'json'] as const),
  ...CODE.map((e) => [e, 'code'] as const),
]);

/**
 * The lower-cased extension of the last path segment, without the dot; `''` when there is none
 * (a dotfile such as `.env` has none).
 *
 * @example
 * extensionOf('docs/Guide.MD'); // 'md'
 */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function byMime(mime: string): Format | undefined {
  const type = mime.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/javascript' || type === 'application/javascript' || type === 'text/x-python')
    return 'code';
  return undefined;
}

const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]/i;
const MARKDOWN_HINTS = [
  /^ {0,3}#{1,6}[ \t]+\S/m, // ATX heading
  /^ {0,3}(?:```|~~~)/m, // code fence
  /^\S[^\n]*\n {0,3}(?:=+|-{2,})[ \t]*$/m, // setext heading
  /\[[^\]\n]+\]\([^)\s]+\)/, // inline link
];

/** A guess from the text alone: only unambiguous signs count, so plain prose stays `text`. */
function sniff(content: string): Format {
  const head = content.slice(0, 4096);
  if (HTML_START.test(head)) return 'html';
  const first = head.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      JSON.parse(content);
      return 'json';
    } catch {
      // Not JSON after all (a Markdown link list starting with '[' for instance); keep looking.
    }
  }
  return MARKDOWN_HINTS.some((re) => re.test(head)) ? 'markdown' : 'text';
}

/**
 * The format of a document: from the extension of `path` when it has a known one, else from `mime`
 * (e.g. a fetch's `Content-Type`), else from the content.
 *
 * @example
 * detectFormat('notes.md', '…'); // 'markdown'
 * detectFormat('', '<!doctype html><title>x</title>'); // 'html'
 */
export function detectFormat(path: string, content: string, mime?: string): Format {
  return byExtension.get(extensionOf(path)) ?? (mime ? byMime(mime) : undefined) ?? sniff(content);
}
