// What a command of the `longship` CLI is: its words for help, what it takes, and what it runs.

import type { Longship } from '../engine.js';
import type { OptionSpecs, OptionValues } from './args.js';
import type { Io } from './output.js';

/** What a command gets to run with. */
export interface CommandContext {
  io: Io;
  values: OptionValues;
  positionals: string[];
  json: boolean;
  /** Fires on Ctrl-C (SIGINT) or SIGTERM: stop, keep what is whole. */
  signal: AbortSignal;
  /** The store's folder, as resolved. */
  storePath: string;
  /**
   * Opens the store (once; the CLI closes it after the command). `create` makes a missing one (add,
   * mcp); `existing` (the default) fails with NOT_FOUND instead, so a read in the wrong folder
   * leaves nothing behind. Commands check their input first: a usage error costs no model load.
   */
  open(mode?: 'create' | 'existing'): Promise<Longship>;
}

export interface Command {
  name: string;
  /** One line for `longship --help`. */
  summary: string;
  /** What `longship <command> --help` says besides the usage and the options. */
  details: string;
  options: OptionSpecs;
  /** How many positionals it takes, and their names in the usage line (`<path…>`). */
  positionals: { min: number; max: number; name: string };
  /** Whether --json applies (not to `mcp`, whose stdout is the protocol's). */
  json?: false;
  run(context: CommandContext): Promise<void>;
}
