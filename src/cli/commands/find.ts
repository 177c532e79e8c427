// `longship find <query>`: the memories, resources and skills that best match, best first: the
// find tool (src/tools/find.ts), as MCP and the AI SDK offer it.

import { citePages } from '../../retrieve/results.js';
import { defaultFindLimit, type FindHits, find as findTool, maxFindLimit } from '../../tools/find.js';
import type { OpenVikingMatch } from '../../tools/openviking-shape.js';
import { stringOption, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { type Io, oneLine, printJson, printLines, printNotes } from '../output.js';
import { runToolCommand } from '../tool-call.js';

export const find: Command = {
  name: 'find',
  summary: 'find the memories, resources and skills that match a query',
  details:
    'Searches by words (BM25) and by meaning (the bundled model) at once, fused. Each hit is printed as\n' +
    'its score, its viking:// URI (with its pages, for a part of a PDF) and its one-line abstract;\n' +
    '`longship read URI` gives the rest.',
  options: {
    limit: {
      type: 'string',
      value: 'N',
      help: `at most N hits (default ${defaultFindLimit}, at most ${maxFindLimit})`,
    },
    uri: { type: 'string', value: 'URI', help: 'search only under this viking:// URI' },
    'search-type': {
      type: 'string',
      value: 'hybrid|keywords|vector',
      help: 'words and meaning (default), words alone (BM25), or meaning alone',
    },
  },
  positionals: { min: 1, max: 1, name: '<query>' },
  async run({ io, values, positionals, json, open, signal }) {
    const args = {
      query: positionals[0],
      limit: wholeNumberOption(values, 'limit', 1, 'find'),
      targetUri: stringOption(values, 'uri'),
      searchType: stringOption(values, 'search-type'),
    };
    const flags = { query: '<query>', limit: '--limit', targetUri: '--uri', searchType: '--search-type' };
    const result = await runToolCommand(findTool, args, flags, { open, signal }, 'find');
    if (json) printJson(io, result);
    else printHits(io, result);
  },
};

function printHits(io: Io, result: FindHits): void {
  if (result.total === 0) {
    printNotes(io, ['no matches']);
    return;
  }
  const lines: string[] = [];
  const groups: [string, OpenVikingMatch[]][] = [
    ['memories', result.memories],
    ['resources', result.resources],
    ['skills', result.skills],
  ];
  for (const [title, hits] of groups) {
    if (hits.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(`${title}:`);
    for (const hit of hits) {
      // A part of a PDF is cited by its pages as well as its URI.
      const where = hit.pages ? `${hit.uri} (${citePages(hit.pages)})` : hit.uri;
      lines.push(`  ${hit.score.toFixed(2)}  ${where}  ${oneLine(hit.abstract)}`);
    }
  }
  printLines(io, lines);
}
