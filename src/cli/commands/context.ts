// `longship context <query> --tokens N`: the prompt-ready block context() assembles, to paste or
// pipe into a prompt; what was left out, and why, on stderr. The context tool
// (src/tools/context.ts), as MCP and the AI SDK offer it.

import { context as contextTool, defaultContextTokens } from '../../tools/context.js';
import { stringOption, wholeNumberOption } from '../args.js';
import type { Command } from '../command.js';
import { printJson, printNotes, printText } from '../output.js';
import { runToolCommand } from '../tool-call.js';

export const context: Command = {
  name: 'context',
  summary: 'the context for a prompt: the best matches that fit a token budget, cited by URI',
  details:
    'Fills the budget with the best memories, resources and skills, each whole where it fits, else the\n' +
    'passages that match, its overview or its abstract, counted with the o200k_base tokenizer. The\n' +
    'block goes to stdout; what did not fit goes to stderr. `--session ID` leaves out what that\n' +
    'session was already given.',
  options: {
    tokens: { type: 'string', value: 'N', help: `the budget in tokens (default ${defaultContextTokens})` },
    uri: { type: 'string', value: 'URI', help: 'search only under this viking:// URI' },
    session: { type: 'string', value: 'ID', help: 'a session: leave out what it was already given' },
  },
  positionals: { min: 1, max: 1, name: '<query>' },
  async run({ io, values, positionals, json, open, signal }) {
    const args = {
      query: positionals[0],
      tokens: wholeNumberOption(values, 'tokens', 1, 'context'),
      targetUri: stringOption(values, 'uri'),
      sessionId: stringOption(values, 'session'),
    };
    const flags = { query: '<query>', tokens: '--tokens', targetUri: '--uri', sessionId: '--session' };
    const result = await runToolCommand(contextTool, args, flags, { open, signal }, 'context');
    if (json) {
      printJson(io, result);
      return;
    }
    if (result.text === '') printNotes(io, ['nothing fits: no matches, or none within the budget']);
    else printText(io, result.text);
    printNotes(
      io,
      result.leftOut.map((item) => `left out (${item.reason}): ${item.uri}`),
    );
  },
};
