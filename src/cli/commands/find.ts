// `longship find <query>`: the memories, resources and skills that best match, best first.

import type { MatchedContext } from '../../retrieve/results.js';
import type { FindResult } from '../../retrieve/retriever.js';
import { type OptionValues, stringOption, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { type Io, oneLine, printJson, printLines } from '../output.js';

export const find: Command = {
  name: 'find',
  summary: 'find the memories, resources and skills that match a query',
  details:
    'Searches by words (BM25) and by meaning (the bundled model) at once, fused. Each hit is printed as\n' +
    'its score, its viking:// URI and its one-line abstract; `longship read URI` gives the rest.',
  options: {
    limit: { type: 'string', value: 'N', help: 'at most N hits (default 10)' },
    uri: { type: 'string', value: 'URI', help: 'search only under this viking:// URI' },
  },
  positionals: { min: 1, max: 1, name: '<query>' },
  async run({ io, values, positionals, json, open }) {
    const limit = limitOf(values);
    const targetUri = stringOption(values, 'uri');
    const longship = await open();
    const { memories, resources, skills, total } = await longship.find(positionals[0]!, {
      limit,
      ...(targetUri !== undefined ? { targetUri } : {}),
    });
    if (json) printJson(io, { memories, resources, skills, total });
    else printHits(io, { memories, resources, skills, total });
  },
};

const limitOf = (values: OptionValues) => wholeNumberOption(values, 'limit', 1, 'find') ?? 10;

function printHits(io: Io, result: FindResult): void {
  if (result.total === 0) {
    io.stderr.write('no matches\n');
    return;
  }
  const lines: string[] = [];
  const groups: [string, MatchedContext[]][] = [
    ['memories', result.memories],
    ['resources', result.resources],
    ['skills', result.skills],
  ];
  for (const [title, hits] of groups) {
    if (hits.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(`${title}:`);
    for (const hit of hits) lines.push(`  ${hit.score.toFixed(2)}  ${hit.uri}  ${oneLine(hit.abstract)}`);
  }
  printLines(io, lines);
}
