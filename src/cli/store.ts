// Which folder the CLI keeps its store in, and opening it: --store, else $LONGSHIP_STORE, else
// ./.longship (a dot folder, as .git is, so `longship add .` leaves it out).

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import type { Io } from './output.js';

export const defaultStore = '.longship';

/** The store folder, as an absolute path. */
export function storeFolder(option: string | undefined, io: Io): string {
  const chosen = option ?? io.env.LONGSHIP_STORE;
  return resolve(io.cwd, chosen === undefined || chosen === '' ? defaultStore : chosen);
}

/**
 * Opens the file store in `folder` with the bundled model. The engine loads on demand, so help,
 * --version and usage errors answer without loading a model.
 */
export async function openStore(folder: string, mode: 'create' | 'existing'): Promise<Longship> {
  if (mode === 'existing' && !existsSync(folder)) {
    throw new LongshipError(
      'NOT_FOUND',
      `no store at ${folder}: \`longship add\` makes one; --store DIR or LONGSHIP_STORE names another`,
    );
  }
  const { openLongship } = await import('../engine.js');
  return openLongship({ store: folder });
}
