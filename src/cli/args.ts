// Reading the command line with node:util's parseArgs: the command is the first word that is not an
// option, options may come before or after it, and anything unknown is a usage error (exit 2).

import { parseArgs } from 'node:util';

/** A mistake in the command line itself: the message and a pointer to help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose help to point at; undefined for `longship --help`. */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** An option of a command, as parseArgs takes it, with what its help says. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in help (`N`, `URI`); string options only. */
  value?: string;
  help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** What every command takes. */
export const globalOptions = {
  store: {
    type: 'string',
    value: 'DIR',
    help: 'the store folder (default: $LONGSHIP_STORE, else ./.longship)',
  },
  json: { type: 'boolean', help: 'print one JSON document on stdout' },
  help: { type: 'boolean', short: 'h', help: 'show help' },
} as const satisfies OptionSpecs;

/** What only `longship` alone takes. */
export const topOptions = {
  ...globalOptions,
  version: { type: 'boolean', short: 'v', help: 'print the version' },
} as const satisfies OptionSpecs;

export type OptionValues = Record<string, string | boolean | undefined>;

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

/**
 * Splits argv (without node and the script) into the command word and the rest. Options before the
 * command are skipped over, with the value of `--store DIR`, so `longship --store x ls` works.
 */
export function splitCommand(args: readonly string[]): { command?: string; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--store') i++;
    else if (!arg.startsWith('-') || arg === '-') {
      return { command: arg, rest: [...args.slice(0, i), ...args.slice(i + 1)] };
    }
  }
  return { rest: [...args] };
}

/** parseArgs, strict: an unknown option, a missing value or a value given to a flag is a UsageError. */
export function parseOptions(
  args: readonly string[],
  options: OptionSpecs,
  command: string | undefined,
): ParsedArgs {
  const config = Object.fromEntries(
    Object.entries(options).map(([name, { type, short }]) => [name, short ? { type, short } : { type }]),
  );
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: config,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as OptionValues, positionals };
  } catch (error) {
    throw new UsageError(usageMessage(error), command);
  }
}

/** parseArgs's message, without its advice about `--` (which rarely is what was meant). */
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return message.replace(/\. To specify a positional argument.*$/s, '');
}

/** A whole number of at least `min` from option `name`, or a UsageError. */
export function wholeNumberOption(
  values: OptionValues,
  name: string,
  min: number,
  command: string,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || value < min) {
    throw new UsageError(
      `--${name} takes a whole number of at least ${min}, not ${JSON.stringify(raw)}`,
      command,
    );
  }
  return value;
}

/** Option `name` when it is a string (parseArgs gives strings for string options). */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}
