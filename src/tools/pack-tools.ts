// export_pack and import_pack: a directory as an OVPack and back, through MCP (docs/guide/ovpack.md,
// "MCP"). The pack travels inside the messages, as base64, never as a path: no model names a file,
// and the import writes through the server's own Longship, its store's one writer. Both are capped
// (maxPackBytes) so that a pack never floods a client, or a model's context. Only the MCP server
// offers them, and only when asked (its `packs` option): a page's proxy has no export(), and an AI
// SDK model has no use for a ZIP's bytes (docs/guide/ai-sdk.md).

import * as v from 'valibot';
import type { Longship } from '../engine.js';
import { LongshipError } from '../errors.js';
import { uri } from './fields.js';
import { defineTool } from './tool.js';

/** What the pack tools use of a Longship. */
export type PackLongship = Pick<Longship, 'export' | 'import'>;

/**
 * 7 MiB. Its base64 (9,786,712 bytes) and the message around it fit the 10 MiB that the MCP SDK's
 * stdio transport buffers of one message: a larger result would close a client that uses it.
 */
export const defaultMaxPackBytes = 7 * 1024 * 1024;

export interface ExportPackOutput {
  /** The directory packed. */
  uri: string;
  /** A file name for the pack: the directory's name, `.ovpack`. */
  name: string;
  mimeType: 'application/zip';
  byteLength: number;
  /** The pack, base64 (MCP gives it as an embedded resource's `blob`, not as text). */
  pack: string;
}

export const exportPack = defineTool({
  name: 'export_pack',
  title: 'Export a directory as an OVPack',
  description:
    "Packs a viking:// directory and everything below it as an OVPack (OpenViking's ZIP), given as " +
    'a base64 blob for a program to keep or to pass to import_pack. Not for reading: use read or tree.',
  input: v.strictObject({
    uri: uri('The viking:// directory to pack'),
    includeVectors: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description("Carry the stored vectors and the embedder's id (default false)"),
      ),
    ),
  }),
  readOnly: true,
  run: async (
    longship: PackLongship,
    input,
    { signal, maxPackBytes = defaultMaxPackBytes },
  ): Promise<ExportPackOutput> => {
    const stream = await longship.export(input.uri, {
      includeVectors: input.includeVectors === true,
      ...(signal ? { signal } : {}),
    });
    const bytes = await readAtMost(stream, maxPackBytes, input.uri);
    const name = `${input.uri.replace(/\/+$/, '').split('/').pop()}.ovpack`;
    return {
      uri: input.uri,
      name,
      mimeType: 'application/zip',
      byteLength: bytes.length,
      pack: toBase64(bytes),
    };
  },
  text: (output) =>
    `Packed ${output.uri}: ${output.byteLength} bytes, the embedded resource (${output.name}, base64).`,
});

export const importPack = defineTool({
  name: 'import_pack',
  title: 'Import an OVPack',
  description:
    "Reads an OVPack (base64, as export_pack gives it) into a directory: parentUri/<the pack's root " +
    'name>. Every name, size and hash in it is checked first: a damaged pack writes nothing.',
  input: v.strictObject({
    pack: v.pipe(
      v.string('must be a string'),
      v.description('The pack (a ZIP), base64'),
      v.minLength(1, 'must not be empty'),
    ),
    parentUri: uri('The viking:// directory the pack goes under (made if missing)'),
    onConflict: v.optional(
      v.pipe(
        v.picklist(['fail', 'skip', 'overwrite'], 'must be fail, skip or overwrite'),
        v.description('When the directory exists: fail (default), skip (write nothing), or overwrite it'),
      ),
    ),
    vectors: v.optional(
      v.pipe(
        v.picklist(['auto', 'recompute', 'require'], 'must be auto, recompute or require'),
        v.description(
          "auto (default): reuse the pack's vectors when the embedder matches; recompute: embed again; " +
            'require: reuse them or fail',
        ),
      ),
    ),
  }),
  readOnly: false,
  run: async (longship: PackLongship, input, { signal, maxPackBytes = defaultMaxPackBytes }) => {
    const bytes = fromBase64(input.pack);
    if (bytes.length > maxPackBytes) {
      throw new LongshipError(
        'INPUT_TOO_LARGE',
        `import_pack: the pack is ${bytes.length} bytes; the limit is ${maxPackBytes} (maxPackBytes)`,
      );
    }
    return longship.import(bytes, input.parentUri, {
      ...(input.onConflict ? { onConflict: input.onConflict } : {}),
      ...(input.vectors ? { vectors: input.vectors } : {}),
      ...(signal ? { signal } : {}),
    });
  },
});

/** The pack tools, in the order MCP's tools/list gives them (after the agent tools). */
export const packTools = { export_pack: exportPack, import_pack: importPack } as const;

/** The stream's bytes; INPUT_TOO_LARGE, the stream cancelled, once they pass `maxBytes`. */
async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  uri: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      length += next.value.length;
      if (length > maxBytes) {
        throw new LongshipError(
          'INPUT_TOO_LARGE',
          `export_pack: the pack of ${uri} is over ${maxBytes} bytes (maxPackBytes); ` +
            'export it with longship export',
        );
      }
      chunks.push(next.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// btoa and atob: the base64 every runtime has (Node 20 lacks Uint8Array.toBase64).

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // A piece at a time: fromCharCode takes its bytes as arguments, and arguments are few.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch (error) {
    throw new LongshipError('INVALID_ARGUMENT', 'import_pack: pack must be base64', { cause: error });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
