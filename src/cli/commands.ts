// The commands of `longship`, in the order `longship --help` lists them.

import type { Command } from './command.js';
import { add } from './commands/add.js';
import { ls, read, tree } from './commands/browse.js';
import { context } from './commands/context.js';
import { find } from './commands/find.js';
import { mcp } from './commands/mcp.js';
import { exportPackCommand, importPackCommand } from './commands/pack.js';

export const commands: readonly Command[] = [
  add,
  find,
  context,
  ls,
  tree,
  read,
  exportPackCommand,
  importPackCommand,
  mcp,
];

export const commandNamed = (name: string): Command | undefined => commands.find((c) => c.name === name);
