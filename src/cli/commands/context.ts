// `longship context <query> --tokens N`: the prompt-ready block context() assembles, to paste or
// pipe into a prompt; what was left out, and why, on stderr.

import { stringOption, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { printJson, printLines } from '../output.js';

export const context: Command = {
  name: 'context',
  summary: 'the context for a prompt: the best matches that fit a token budget, cited by URI',
  details:
    'Fills the budget with the best memories, resources and skills, each whole where it fits, else the\n' +
    'passages that match, its overview or its abstract, counted with the o200k_base tokenizer. The\n' +
    'block goes to stdout; what did not fit goes to stderr. `--session ID` leaves out what that\n' +
    'session was already given.',
  options: {
    tokens: { type: 'string', value: 'N', help: 'the budget in tokens (default 2000)' },
    uri: { type: 'string', value: 'URI', help: 'search only under this viking:// URI' },
    session: { type: 'string', value: 'ID', help: 'a session: leave out what it was already given' },
  },
  positionals: { min: 1, max: 1, name: '<query>' },
  async run({ io, values, positionals, json, open, signal }) {
    const tokens = wholeNumberOption(values, 'tokens', 1, 'context') ?? 2000;
    const targetUri = stringOption(values, 'uri');
    const session = stringOption(values, 'session');
    const longship = await open();
    const result = await longship.context(positionals[0]!, {
      budget: { tokens },
      signal,
      ...(targetUri !== undefined ? { targetUri } : {}),
      ...(session !== undefined ? { session } : {}),
    });
    if (json) {
      printJson(io, result);
      return;
    }
    if (result.text === '') io.stderr.write('nothing fits: no matches, or none within the budget\n');
    else printLines(io, [result.text]);
    const left = result.leftOut.map((item) => `left out (${item.reason}): ${item.uri}`);
    if (left.length > 0) io.stderr.write(`${left.join('\n')}\n`);
  },
};
