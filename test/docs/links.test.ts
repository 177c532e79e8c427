// The link checker the README and docs tests use (tools/docs/links.ts): what it finds, what it
// refuses, and that it finds nothing in code.
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, markdownLinks } from '../../tools/docs/links.js';

const files: Record<string, string> = {
  'README.md': '# Longship\n\n## Quick start\n',
  'docs/guide/package.md': '# The package\n\n## Entry points\n\n## What ships\n\n## Entry points\n',
  'docs/guide/assets.md': '# Assets\n',
  'examples/node-types/tsconfig.json': '{}',
};
const targets = {
  has: (path: string) => path in files || Object.keys(files).some((file) => file.startsWith(`${path}/`)),
  read: (path: string) => (path.endsWith('.md') ? files[path] : undefined),
  hosts: ['github.com'],
};

describe('markdownLinks', () => {
  it('finds inline links with their lines, and none in code', () => {
    const page = [
      'See [the package](docs/guide/package.md) and [assets](<docs/guide/assets.md> "title").',
      '`[not](a-link.md)`',
      '```md',
      '[nor](this.md)',
      '```',
      'A link over [two',
      'lines](#quick-start).',
    ].join('\n');
    expect(markdownLinks(page)).toEqual([
      { target: 'docs/guide/package.md', line: 1 },
      { target: 'docs/guide/assets.md', line: 1 },
      { target: '#quick-start', line: 7 },
    ]);
  });
});

describe('headingAnchors', () => {
  it('makes the anchors GitHub makes: lowercase, no punctuation or Markdown, repeats numbered', () => {
    const page = [
      '# Longship',
      '## Vector index (`npm run bench:vector`, 100,000 × 512)',
      '### Vectors are `i8` by default',
      "## OpenViking's RAG benchmark",
      '## [Linked](x.md) heading',
      '## Entry points',
      '## Entry points',
      '```',
      '# not a heading',
      '```',
    ].join('\n');
    expect([...headingAnchors(page)]).toEqual([
      'longship',
      'vector-index-npm-run-benchvector-100000--512',
      'vectors-are-i8-by-default',
      'openvikings-rag-benchmark',
      'linked-heading',
      'entry-points',
      'entry-points-1',
    ]);
  });
});

describe('brokenLinks', () => {
  it('accepts files, folders, headings and known hosts', () => {
    const page = [
      '[a](docs/guide/package.md) [b](docs/guide/package.md#entry-points-1) [c](#quick-start)',
      '[d](examples/node-types/) [e](https://github.com/longship/longship)',
    ].join('\n');
    expect(brokenLinks('README.md', page, targets)).toEqual([]);
  });

  it('names each link that leads nowhere, and why', () => {
    const page = [
      '[a](docs/guide/pakage.md) [b](docs/guide/package.md#entry-pointz) [c](#install)',
      '[d](https://cdn.jsdelivr.net/npm/longship) [e](https://example.com/) [f](http://github.com/x)',
      '[g](../outside.md) [h](examples/node-types/tsconfig.json#x)',
    ].join('\n');
    expect(brokenLinks('README.md', page, targets)).toEqual([
      'README.md:1: docs/guide/pakage.md: no such file',
      'README.md:1: docs/guide/package.md#entry-pointz: no heading #entry-pointz',
      'README.md:1: #install: no heading #install',
      'README.md:2: https://cdn.jsdelivr.net/npm/longship: a CDN',
      'README.md:2: https://example.com/: example.com is not a host the docs link to',
      'README.md:2: http://github.com/x: not an https: link',
      'README.md:3: ../outside.md: outside the package',
      'README.md:3: examples/node-types/tsconfig.json#x: an anchor in a file that is not Markdown',
    ]);
  });

  it('resolves a page’s links from its own folder', () => {
    expect(
      brokenLinks('docs/guide/package.md', '[a](assets.md) [b](../../README.md#quick-start)', targets),
    ).toEqual([]);
    expect(brokenLinks('docs/guide/package.md', '[a](../assets.md)', targets)).toEqual([
      'docs/guide/package.md:1: ../assets.md: no such file',
    ]);
  });

  it('refuses a CDN even when its host is on the list', () => {
    expect(
      brokenLinks('README.md', '[x](https://unpkg.com/longship)', { ...targets, hosts: ['unpkg.com'] }),
    ).toEqual(['README.md:1: https://unpkg.com/longship: a CDN']);
  });
});
