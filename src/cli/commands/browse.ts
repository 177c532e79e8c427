// Looking through the viking:// tree: `ls`, `tree` and `read`, the tools of the same names
// (src/tools/browse.ts, src/tools/read.ts), as MCP and the AI SDK offer them.

import {
  type BrowsePage,
  ls as lsTool,
  maxBrowseLimit,
  type NodeBrief,
  type TreeBrief,
  tree as treeTool,
} from '../../tools/browse.js';
import { read as readTool } from '../../tools/read.js';
import { type OptionSpecs, type OptionValues, stringOption, UsageError, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { type Io, oneLine, pad, printJson, printLines, printNotes, printText, visible } from '../output.js';
import { runToolCommand } from '../tool-call.js';

const top = 'viking://';

/** ls and tree a page at a time: OpenViking's node limit, and Longship's cursor for the rest. */
const pageOptions = {
  limit: {
    type: 'string',
    value: 'N',
    help: `at most N nodes (default and most ${maxBrowseLimit})`,
  },
  cursor: { type: 'string', value: 'CURSOR', help: 'go on after the page that printed it' },
} as const satisfies OptionSpecs;

function pageArgs(values: OptionValues, command: string) {
  return { limit: wholeNumberOption(values, 'limit', 1, command), cursor: stringOption(values, 'cursor') };
}

const pageFlags = { limit: '--limit', cursor: '--cursor' };

/** On stderr, so stdout stays the listing: the command line that prints the next page. */
function noteMore(io: Io, page: BrowsePage, words: readonly (string | number)[]): void {
  if (!page.cursor) return;
  const line = [...words, '--cursor', page.cursor].map(shellWord);
  printNotes(io, [`more: ${line.join(' ')}`]);
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string | number): string {
  const text = String(word);
  return /^[\w@%+=:,./~-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

const option = (flag: string, value: number | undefined) => (value === undefined ? [] : [flag, value]);

/** A node's URI as ls prints it, made visible before it is padded: directories end in `/`. */
const shown = (node: NodeBrief) => visible(node.kind === 'dir' ? `${node.uri}/` : node.uri, 'line');

export const ls: Command = {
  name: 'ls',
  summary: 'list a directory (default viking://)',
  details:
    'Prints each node under the directory: its URI (a directory ends in /) and its one-line abstract.\n' +
    'When nodes were left out, stderr says the command that prints the next page.',
  options: pageOptions,
  positionals: { min: 0, max: 1, name: '[uri]' },
  async run({ io, values, positionals, json, open, signal }) {
    const args = { uri: positionals[0] ?? top, ...pageArgs(values, 'ls') };
    const flags = { uri: '[uri]', ...pageFlags };
    const result = await runToolCommand(lsTool, args, flags, { open, signal }, 'ls');
    if (json) return printJson(io, result);
    noteMore(io, result, ['longship', 'ls', args.uri, ...option('--limit', args.limit)]);
    const width = Math.max(0, ...result.nodes.map((node) => [...shown(node)].length));
    printLines(
      io,
      result.nodes.map((node) => `${pad(shown(node), width)}  ${oneLine(node.abstract)}`),
    );
  },
};

export const tree: Command = {
  name: 'tree',
  summary: 'show the nodes under a directory (default viking://), nested',
  details:
    'Prints the names below the directory as `tree` does; --json adds the fields of every node.\n' +
    'When nodes were left out, stderr says the command that prints the next page.',
  options: {
    depth: { type: 'string', value: 'N', help: 'levels below the directory (default 3, at most 16)' },
    ...pageOptions,
  },
  positionals: { min: 0, max: 1, name: '[uri]' },
  async run({ io, values, positionals, json, open, signal }) {
    const depth = wholeNumberOption(values, 'depth', 1, 'tree');
    const args = { uri: positionals[0] ?? top, depth, ...pageArgs(values, 'tree') };
    const flags = { uri: '[uri]', depth: '--depth', ...pageFlags };
    const result = await runToolCommand(treeTool, args, flags, { open, signal }, 'tree');
    if (json) return printJson(io, result);
    noteMore(io, result, [
      'longship',
      'tree',
      args.uri,
      ...option('--depth', depth),
      ...option('--limit', args.limit),
    ]);
    printLines(io, [result.uri, ...drawn(result.nodes, '')]);
  },
};

/** `nodes` as `tree` draws them: each name on its line, behind the branches that lead to it. */
function drawn(nodes: readonly TreeBrief[], indent: string): string[] {
  return nodes.flatMap((node, i) => {
    const last = i === nodes.length - 1;
    const name = node.kind === 'dir' ? `${node.name}/` : node.name;
    const below = node.children ? drawn(node.children, `${indent}${last ? '    ' : '│   '}`) : [];
    return [`${indent}${last ? '└── ' : '├── '}${name}`, ...below];
  });
}

const layers = { l0: 'L0', l1: 'L1', l2: 'L2' } as const;

function layerOf(values: OptionValues): (typeof layers)[keyof typeof layers] | undefined {
  const given = stringOption(values, 'layer');
  if (given === undefined) return undefined;
  const layer = given.toLowerCase();
  if (!Object.hasOwn(layers, layer)) {
    throw new UsageError(`--layer takes l0, l1 or l2, not ${JSON.stringify(values.layer)}`, 'read');
  }
  return layers[layer as keyof typeof layers];
}

export const read: Command = {
  name: 'read',
  summary: "print a node's text: its content, overview (--layer l1) or abstract (l0)",
  details:
    'Layers: l0 is the one-line abstract, l1 the overview, l2 (the default) the whole content.\n' +
    'A long document, kept as a directory of its sections, reads whole at l2; other directories have\n' +
    'l0 and l1 only. On a terminal, control characters are shown as \\xNN; in a pipe, the text\n' +
    'is as stored.',
  options: { layer: { type: 'string', value: 'l0|l1|l2', help: 'which layer (default l2)' } },
  positionals: { min: 1, max: 1, name: '<uri>' },
  async run({ io, values, positionals, json, open, signal }) {
    const args = { uri: positionals[0], layer: layerOf(values) };
    const flags = { uri: '<uri>', layer: '--layer' };
    const result = await runToolCommand(readTool, args, flags, { open, signal }, 'read');
    if (json) return printJson(io, result);
    printText(io, result.text);
  },
};
