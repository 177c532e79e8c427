// `longship export <uri> <file>` and `longship import <file> <parent>`: a directory to an OVPack
// file and back (docs/guide/ovpack.md). The pack streams to and from the disk: an export holds one
// node at a time, an import reads the file twice (checks, then writes) without loading it.

import { openAsBlob } from 'node:fs';
import { open as openFile, rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LongshipError } from '../../errors.js';
import type { ImportResult } from '../../ovpack/pack-options.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { printJson, printLines } from '../output.js';

export const exportPackCommand: Command = {
  name: 'export',
  summary: 'write a directory and everything below it to an OVPack file',
  details:
    "The pack is a ZIP in OpenViking's format (version 3): the nodes' content, their L0/L1, meta and\n" +
    'a manifest of sha256 hashes. With --vectors it also carries the stored vectors and the\n' +
    "embedding model's id, so an import into a store with the same model need not embed again.\n" +
    'The file is written whole or not at all.',
  options: {
    vectors: { type: 'boolean', help: 'carry the stored vectors (dense.f32)' },
  },
  positionals: { min: 2, max: 2, name: '<uri> <file.ovpack>' },
  async run({ io, values, positionals, json, signal, open }) {
    const [uri, file] = positionals as [string, string];
    const path = resolve(io.cwd, file);
    const longship = await open();
    const stream = await longship.export(uri, { includeVectors: values.vectors === true, signal });
    // Written beside the file, then moved over it: a failed export leaves no half pack.
    const partial = `${path}.partial`;
    const handle = await openFile(partial, 'w');
    let bytes = 0;
    const reader = stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        await handle.write(next.value);
        bytes += next.value.length;
      }
      await handle.close();
      await rename(partial, path);
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
    if (json) printJson(io, { uri, file, bytes });
    else printLines(io, [`${uri} → ${file}  ${bytes} bytes`]);
  },
};

const conflicts = ['fail', 'skip', 'overwrite'] as const;
const vectorModes = ['auto', 'recompute', 'require'] as const;

function choice<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new UsageError(`--${name} takes ${allowed.join(', ')}, not ${JSON.stringify(value)}`, 'import');
  }
  return value as T;
}

export const importPackCommand: Command = {
  name: 'import',
  summary: 'read an OVPack file into a directory under <parent>',
  details:
    'The pack becomes <parent>/<its root name>. Every name, size and sha256 in it is checked before\n' +
    'anything is written: a damaged or hostile pack writes nothing. Packs from OpenViking import too.',
  options: {
    'on-conflict': {
      type: 'string',
      value: 'fail|skip|overwrite',
      help: 'when the directory exists: fail (default), skip it, or overwrite it',
    },
    'vector-mode': {
      type: 'string',
      value: 'auto|recompute|require',
      help: "reuse the pack's vectors when the model matches (auto, default), never, or always",
    },
  },
  positionals: { min: 2, max: 2, name: '<file.ovpack> <parent>' },
  async run({ io, values, positionals, json, signal, open }) {
    const [file, parent] = positionals as [string, string];
    const onConflict = choice(values['on-conflict'], 'on-conflict', conflicts);
    const vectors = choice(values['vector-mode'], 'vector-mode', vectorModes);
    const path = resolve(io.cwd, file);
    const found = await stat(path).catch(() => undefined);
    if (!found?.isFile()) throw new LongshipError('NOT_FOUND', `no file ${file}`);
    const pack = await openAsBlob(path);
    const longship = await open('create');
    const result: ImportResult = await longship.import(pack, parent, {
      signal,
      ...(onConflict ? { onConflict } : {}),
      ...(vectors ? { vectors } : {}),
    });
    if (json) printJson(io, result);
    else if (result.skipped) printLines(io, [`${file} → ${result.uri}  skipped: it exists`]);
    else printLines(io, [`${file} → ${result.uri}  ${result.nodes} nodes, vectors ${result.vectors}`]);
  },
};
