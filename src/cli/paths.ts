// The files and folders `longship add` is given, read into what addResource takes, as the library
// reads `{ path }` (src/ingest/local-path.ts). Everything is checked before the store opens, so a
// missing, unreadable or binary file writes nothing at all.

import { type LocalInput, readLocalPath } from '../ingest/local-path.js';

export type { LocalInput };

/**
 * Reads each of `paths` (relative to `cwd`); `store` (the store's folder) is never read, whatever
 * links lead to it or to the paths: they are compared as real paths (docs/guide/cli.md, "add"). Throws
 * NOT_FOUND for a missing path, BINARY_INPUT or INPUT_TOO_LARGE for a file given by name,
 * UNSUPPORTED_INPUT for what cannot be read, INVALID_ARGUMENT for the store itself.
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
