// Looking through the viking:// tree: `ls`, `tree` and `read`.

import type { NodeInfo, TreeNode } from '../../context/tree.js';
import { type OptionValues, stringOption, UsageError, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { oneLine, pad, printJson, printLines } from '../output.js';

const top = 'viking://';

/** A node's URI as ls prints it: directories end in `/`. */
const shown = (node: NodeInfo) => (node.kind === 'dir' ? `${node.uri}/` : node.uri);

export const ls: Command = {
  name: 'ls',
  summary: 'list a directory (default viking://)',
  details: 'Prints each node under the directory: its URI (a directory ends in /) and its one-line abstract.',
  options: {},
  positionals: { min: 0, max: 1, name: '[uri]' },
  async run({ io, positionals, json, open }) {
    const uri = positionals[0] ?? top;
    const longship = await open();
    const nodes = await longship.ls(uri);
    if (json) return printJson(io, { uri, nodes });
    const width = Math.max(0, ...nodes.map((node) => [...shown(node)].length));
    printLines(
      io,
      nodes.map((node) => `${pad(shown(node), width)}  ${oneLine(node.abstract)}`),
    );
  },
};

export const tree: Command = {
  name: 'tree',
  summary: 'show the nodes under a directory (default viking://), nested',
  details: 'Prints the names below the directory as `tree` does; --json adds every field of every node.',
  options: { depth: { type: 'string', value: 'N', help: 'levels below the directory (default 3)' } },
  positionals: { min: 0, max: 1, name: '[uri]' },
  async run({ io, values, positionals, json, open }) {
    const uri = positionals[0] ?? top;
    const depth = depthOf(values);
    const longship = await open();
    const nodes = await longship.tree(uri, { depth });
    if (json) return printJson(io, { uri, depth, nodes });
    printLines(io, [uri, ...drawn(nodes, '')]);
  },
};

const depthOf = (values: OptionValues) => wholeNumberOption(values, 'depth', 1, 'tree') ?? 3;

/** `nodes` as `tree` draws them: each name on its line, behind the branches that lead to it. */
function drawn(nodes: readonly TreeNode[], indent: string): string[] {
  return nodes.flatMap((node, i) => {
    const last = i === nodes.length - 1;
    const name = node.kind === 'dir' ? `${node.name}/` : node.name;
    const below = node.children ? drawn(node.children, `${indent}${last ? '    ' : '│   '}`) : [];
    return [`${indent}${last ? '└── ' : '├── '}${name}`, ...below];
  });
}

const layers = { l0: 'abstract', l1: 'overview', l2: 'read' } as const;

function layerOf(values: OptionValues): keyof typeof layers {
  const layer = (stringOption(values, 'layer') ?? 'l2').toLowerCase();
  if (!Object.hasOwn(layers, layer)) {
    throw new UsageError(`--layer takes l0, l1 or l2, not ${JSON.stringify(values.layer)}`, 'read');
  }
  return layer as keyof typeof layers;
}

export const read: Command = {
  name: 'read',
  summary: "print a node's text: its content, overview (--layer l1) or abstract (l0)",
  details:
    'Layers: l0 is the one-line abstract, l1 the overview, l2 (the default) the whole content.\n' +
    'A directory has l0 and l1 only.',
  options: { layer: { type: 'string', value: 'l0|l1|l2', help: 'which layer (default l2)' } },
  positionals: { min: 1, max: 1, name: '<uri>' },
  async run({ io, values, positionals, json, open }) {
    const layer = layerOf(values);
    const uri = positionals[0]!;
    const longship = await open();
    const text = await longship[layers[layer]](uri);
    if (json) return printJson(io, { uri, layer: layer.toUpperCase(), text });
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  },
};
