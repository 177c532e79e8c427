// One run of `longship`: the command line read, the command run, the store closed, and the exit
// code a shell expects: 0 done, 1 a failed operation (its LongshipError code and message on
// stderr), 2 a usage error, 130 stopped by Ctrl-C.

import { readFileSync } from 'node:fs';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import {
  globalOptions,
  type OptionSpecs,
  parseOptions,
  splitCommand,
  stringOption,
  topOptions,
  UsageError,
} from './args.js';
import type { Command } from './command.js';
import { commandNamed } from './commands.js';
import { CommandFailure } from './failure.js';
import { commandHelp, mainHelp, usageLine } from './help.js';
import { errorJson, type Io, printJson } from './output.js';
import { openStore, storeFolder } from './store.js';

/** Runs the command line `args` (argv without node and the script); resolves with the exit code. */
export async function runCli(args: readonly string[], io: Io, signal: AbortSignal): Promise<number> {
  const { command: word, rest } = splitCommand(args);
  let json = false;
  let longship: Longship | undefined;
  let code = 0;
  try {
    if (word === undefined) return top(rest, io);
    if (word === 'help') return help(rest, io);
    const command = commandNamed(word);
    if (!command) throw new UsageError(`unknown command ${word}`);
    const { values, positionals } = parseOptions(rest, optionsOf(command), command.name);
    if (values.help) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    json = values.json === true;
    checkPositionals(command, positionals);
    const storePath = storeFolder(stringOption(values, 'store'), io);
    const open = async (mode: 'create' | 'existing' = 'existing') => {
      longship ??= await openStore(storePath, mode);
      return longship;
    };
    await command.run({ io, values, positionals, json, signal, storePath, open });
  } catch (error) {
    code = failed(io, error, json, signal);
  }
  try {
    await longship?.close();
  } catch (error) {
    if (code === 0) code = failed(io, error, json, signal);
  }
  return code;
}

/** `longship` with no command: --version, --help, or the help on stderr as a usage error. */
function top(args: readonly string[], io: Io): number {
  const { values, positionals } = parseOptions(args, topOptions, undefined);
  if (positionals.length > 0) throw new UsageError(`unknown command ${positionals[0]}`);
  if (values.version) {
    if (values.json) printJson(io, { version: version() });
    else io.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help) {
    io.stdout.write(mainHelp());
    return 0;
  }
  io.stderr.write(mainHelp());
  return 2;
}

/** `longship help [command]`. */
function help(args: readonly string[], io: Io): number {
  const { positionals } = parseOptions(args, {}, undefined);
  if (positionals.length === 0) {
    io.stdout.write(mainHelp());
    return 0;
  }
  const command = commandNamed(positionals[0]!);
  if (!command) throw new UsageError(`unknown command ${positionals[0]}`);
  io.stdout.write(commandHelp(command));
  return 0;
}

/** The command's options and the global ones it takes. */
function optionsOf(command: Command): OptionSpecs {
  const globals = Object.entries(globalOptions).filter(([name]) => name !== 'json' || command.json !== false);
  return { ...command.options, ...Object.fromEntries(globals) };
}

function checkPositionals(command: Command, positionals: readonly string[]): void {
  const { min, max, name } = command.positionals;
  if (positionals.length < min) throw new UsageError(`missing ${name}`, command.name);
  if (positionals.length > max) throw new UsageError(`unexpected argument ${positionals[max]}`, command.name);
}

/** Reports `error` on stderr (and as JSON on stdout with --json); returns the exit code. */
function failed(io: Io, error: unknown, json: boolean, signal: AbortSignal): number {
  if (error instanceof UsageError) {
    const command = error.command === undefined ? undefined : commandNamed(error.command);
    const where = command ? `longship ${command.name}` : 'longship';
    io.stderr.write(`${where}: ${error.message}\n`);
    if (command) io.stderr.write(`${usageLine(command)}\n`);
    io.stderr.write(`Run '${where} --help' for more.\n`);
    return 2;
  }
  const cause = error instanceof CommandFailure ? error.error : error;
  if (json)
    printJson(io, { ...(error instanceof CommandFailure ? error.partial : {}), error: errorJson(cause) });
  if (cause instanceof LongshipError) io.stderr.write(`longship: ${cause.code}: ${cause.message}\n`);
  // Not a LongshipError: a bug, whose stack is what a report needs.
  else
    io.stderr.write(
      `longship: internal error: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`,
    );
  return signal.aborted && cause instanceof LongshipError && cause.code === 'ABORTED' ? 130 : 1;
}

/** This package's version, from its package.json (two folders up, from src/cli/ or dist/cli/). */
export function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(manifest.version);
}
