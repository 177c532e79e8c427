// The help texts: `longship --help` and `longship <command> --help`.

import { globalOptions, type OptionSpecs, topOptions } from './args.js';
import type { Command } from './command.js';
import { commands } from './commands.js';
import { pad } from './output.js';

function optionLines(options: OptionSpecs): string[] {
  const flags = Object.entries(options).map(([name, { short, value }]) => {
    const long = `--${name}${value ? ` ${value}` : ''}`;
    return short ? `-${short}, ${long}` : `    ${long}`;
  });
  const width = Math.max(...flags.map((flag) => flag.length));
  return Object.values(options).map(({ help }, i) => `  ${pad(flags[i]!, width)}  ${help}`);
}

/** `longship --help`. */
export function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'longship: a context database for AI agents, kept in a folder on this machine',
    '',
    'Usage: longship <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${pad(c.name, width)}  ${c.summary}`),
    '',
    'Options:',
    ...optionLines(topOptions),
    '',
    "Run 'longship <command> --help' for a command's own options.",
    '',
  ].join('\n');
}

/** The usage line of `command`. */
export function usageLine(command: Command): string {
  const { name } = command.positionals;
  return `Usage: longship ${command.name}${name ? ` ${name}` : ''} [options]`;
}

/** `longship <command> --help`. */
export function commandHelp(command: Command): string {
  const globals: OptionSpecs =
    command.json === false
      ? Object.fromEntries(Object.entries(globalOptions).filter(([name]) => name !== 'json'))
      : globalOptions;
  return [
    usageLine(command),
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    command.details,
    '',
    'Options:',
    ...optionLines({ ...command.options, ...globals }),
    '',
  ].join('\n');
}
