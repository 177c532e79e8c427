// The links of a Markdown page and whether each leads somewhere: a relative link to a file that is
// there (and to a heading of it, for an anchor), an absolute one to a host we trust to stay up. The
// README renders on npm's page, where relative links resolve against the repository, and in
// node_modules/longship/, where they resolve against the package: so the package ships every page
// the README links (docs/guide/package.md), and test/consumer/package.test.ts checks the tarball.
import { posix } from 'node:path';

/** One link of a page: its target as written, and the line it is on (1-based). */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** What a page's links may lead to. */
export interface LinkTargets {
  /** Whether a path (from the root, no leading `./`) is there: a file, or a folder with files. */
  has(path: string): boolean;
  /** A Markdown file's text, for its headings; undefined when it cannot be read. */
  read(path: string): string | undefined;
  /** The hosts an absolute link may name. */
  readonly hosts: readonly string[];
}

/**
 * The hosts the README and the docs may link to: the repository's, and sites that document what
 * Longship implements or plugs into. A new one is added here on purpose, never a CDN.
 */
export const linkedHosts = [
  'github.com',
  'www.npmjs.com',
  'agentskills.io',
  'ai-sdk.dev',
  'modelcontextprotocol.io',
  'valibot.dev',
  'keepachangelog.com',
  'semver.org',
] as const;

/** Fenced blocks and inline code, blanked with their line breaks kept, so that no link is found in code. */
function withoutCode(markdown: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank).replace(/`[^`\n]+`/g, blank);
}

/** Every inline link `[text](target)` of `markdown` outside code, in order. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown);
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
    target: match[1]!,
    line: text.slice(0, match.index).split('\n').length,
  }));
}

/**
 * The anchors of a page's headings as GitHub (and npm's page) makes them: the heading's text
 * lowercased, without its Markdown and punctuation, spaces as hyphens, a repeat numbered `-1`, `-2`.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Fenced blocks blanked, inline code kept: a heading's code is part of its anchor. */
function withoutCodeFences(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
}

/**
 * What is wrong with each link of `page` (its path from the root), as `page:line: target: why`;
 * empty when every link leads somewhere. A link to a CDN is wrong whatever the list of hosts says.
 */
export function brokenLinks(page: string, markdown: string, targets: LinkTargets): string[] {
  const problems: string[] = [];
  for (const { target, line } of markdownLinks(markdown)) {
    const why = problemOf(page, target, targets);
    if (why) problems.push(`${page}:${line}: ${target}: ${why}`);
  }
  return problems;
}

function problemOf(page: string, target: string, targets: LinkTargets): string | undefined {
  if (/^[a-z][\w+.-]*:/i.test(target)) {
    if (!/^https:\/\//i.test(target)) return 'not an https: link';
    const host = new URL(target).hostname;
    if (/(^|\.)(cdn|jsdelivr|unpkg|cdnjs)\b|\bcdn\./i.test(host)) return 'a CDN';
    return targets.hosts.includes(host) ? undefined : `${host} is not a host the docs link to`;
  }
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURI(path)));
  if (file.startsWith('../')) return 'outside the package';
  const at = file.replace(/\/$/, '');
  if (!targets.has(at)) return 'no such file';
  if (anchor === undefined) return undefined;
  const text = targets.read(at);
  if (text === undefined) return 'an anchor in a file that is not Markdown';
  return headingAnchors(text).has(anchor) ? undefined : `no heading #${anchor}`;
}
