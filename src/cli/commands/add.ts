// `longship add <path…>`: files and folders in as resources, one addResource job each, in order.

import { join, relativeTo, type VikingUri } from '../../context/uri.js';
import type { IngestResult } from '../../ingest/ingest.js';
import { type LocalInput, readLocalPath } from '../../ingest/local-path.js';
import { stringOption } from '../args.js';
import type { Command } from '../command.js';
import { CommandFailure } from '../failure.js';
import { errorJson, type Io, printJson, printLines } from '../output.js';
import { createProgress } from '../progress.js';

/** What one path added, as --json reports it. */
interface Added extends Omit<IngestResult, 'skipped'> {
  path: string;
  /** The node the path became: the file's, or the folder's directory. */
  uri?: string;
  skipped: { path: string; code: string; message: string }[];
}

export const add: Command = {
  name: 'add',
  summary: 'add files and folders as resources',
  details:
    'A file becomes viking://resources/<name> (under --to if given); a folder becomes a directory of\n' +
    'its files, read by their extensions. Adding again writes only what changed, and a folder again\n' +
    'removes what is gone from it. Inside folders, hidden entries (.git, .longship) and node_modules\n' +
    'are left out, links are not followed, and binary or oversized files are skipped with a warning.\n' +
    'PDF, Word, PowerPoint and Excel files are read as text, with their headings and tables.\n' +
    'A path that is missing, or a file that is binary, stops the add before anything is written.',
  options: {
    to: { type: 'string', value: 'URI', help: 'the directory to add under (default viking://resources)' },
    quiet: { type: 'boolean', short: 'q', help: 'no progress on stderr' },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, name: '<path…>' },
  async run({ io, values, positionals, json, signal, storePath, open }) {
    // Loaded here, not at the top: `longship --help` need not load ingestion.
    const { resolveTarget } = await import('../../ingest/add-resource.js');
    const target = resolveTarget(stringOption(values, 'to'));
    const inputs = await readLocalInputs(positionals, io.cwd, storePath);
    const longship = await open('create');
    const progress = createProgress(io.stderr, values.quiet === true);
    const results: Added[] = [];
    try {
      for (const [index, input] of inputs.entries()) {
        const content = input.kind === 'file' ? input.content : input.entries;
        const result = await longship.addResource(content, {
          target,
          signal,
          onProgress: progress.job(input.path, index, inputs.length),
          ...(input.name !== undefined ? { name: input.name } : {}),
        });
        progress.end();
        results.push(added(input, target, result));
        if (!json) report(io, results.at(-1)!);
      }
    } catch (error) {
      progress.end();
      throw new CommandFailure(error, { target, results });
    }
    if (json) printJson(io, { target, results });
  },
};

function added(input: LocalInput, target: VikingUri, result: IngestResult): Added {
  const { uris, skipped, ...counts } = result;
  const uri = input.kind === 'file' ? uris[0] : folderUri(target, uris);
  return {
    path: input.path,
    ...(uri !== undefined ? { uri } : {}),
    uris,
    ...counts,
    skipped: skipped.map(({ path, error }) => ({ path, ...errorJson(error) })),
  };
}

/** The directory a folder became: the first step below the target of any of its documents. */
function folderUri(target: VikingUri, uris: readonly string[]): string | undefined {
  const first = uris[0] === undefined ? undefined : relativeTo(uris[0] as VikingUri, target);
  return first ? join(target, first.split('/')[0]!) : undefined;
}

/** One line on stdout per path; each skipped file as a warning on stderr. */
function report(io: Io, result: Added): void {
  for (const { path, code, message } of result.skipped) {
    io.stderr.write(`longship: skipped ${path}: ${code}: ${message}\n`);
  }
  for (const { path, pages } of result.scannedPages ?? []) {
    const which = pages.length === 1 ? `page ${pages[0]} has` : `pages ${pages.join(', ')} have`;
    io.stderr.write(`longship: ${path}: ${which} no text (scanned images; run OCR to index them)\n`);
  }
  const counts = [`${result.added} added`, `${result.changed} changed`, `${result.unchanged} unchanged`];
  if (result.removed > 0) counts.push(`${result.removed} removed`);
  if (result.skipped.length > 0) counts.push(`${result.skipped.length} skipped`);
  printLines(io, [`${result.path} → ${result.uri ?? '(nothing)'}  ${counts.join(', ')}`]);
}

/**
 * Reads each of `paths` (relative to `cwd`) as `addResource({ path })` does, before the store opens,
 * so a missing, unreadable or binary file writes nothing at all. `store` (the store's folder) is
 * never read, whatever links lead to it or to the paths: they are compared as real paths
 * (docs/guide/cli.md, "add"). Throws NOT_FOUND for a missing path, BINARY_INPUT or INPUT_TOO_LARGE
 * for a file given by name, UNSUPPORTED_INPUT for what cannot be read, INVALID_ARGUMENT for the store.
 */
export async function readLocalInputs(
  paths: readonly string[],
  cwd: string,
  store: string,
): Promise<LocalInput[]> {
  const inputs: LocalInput[] = [];
  for (const path of paths) inputs.push(await readLocalPath(path, { cwd, exclude: store }));
  return inputs;
}
