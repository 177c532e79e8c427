// The pack tools on their own (docs/guide/ovpack.md, "MCP"), over a stand-in for export() and import():
// the pack's bytes go to base64 and back unchanged, and an export past the limit stops reading.
import { describe, expect, it } from 'vitest';
import type { ImportResult, PackInput } from '../../src/ovpack/pack-options.js';
import { exportPack, importPack, type PackLongship } from '../../src/tools/pack-tools.js';
import { expectCode } from '../context/fixtures.js';

/** Every byte value, many times over. */
const everyByte = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);

/** A stand-in whose export() streams `bytes` in pieces, counting what was pulled, and whose import() keeps its pack. */
function standIn(bytes: Uint8Array) {
  const seen = { pulled: 0, cancelled: false, imported: undefined as Uint8Array | undefined };
  const longship = {
    export: async () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            const piece = bytes.subarray(seen.pulled, seen.pulled + 1000);
            seen.pulled += piece.length;
            if (piece.length === 0) controller.close();
            else controller.enqueue(piece);
          },
          cancel() {
            seen.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      ),
    import: async (pack: PackInput, parentUri: string): Promise<ImportResult> => {
      seen.imported = pack as Uint8Array;
      return { uri: `${parentUri}/pkg`, skipped: false, nodes: 1, vectors: 'recomputed' };
    },
  } as unknown as PackLongship;
  return { longship, seen };
}

describe('the pack tools', () => {
  it('carry every byte value through base64 unchanged', async () => {
    const { longship, seen } = standIn(everyByte);
    const out = await exportPack.run(longship, { uri: 'viking://resources/pkg/' }, {});
    expect(out).toMatchObject({ name: 'pkg.ovpack', byteLength: everyByte.length });
    await importPack.run(longship, { pack: out.pack, parentUri: 'viking://resources' }, {});
    expect(seen.imported).toEqual(everyByte);
  });

  it('stop reading an export once it passes maxPackBytes', async () => {
    const { longship, seen } = standIn(everyByte);
    await expectCode(
      exportPack.run(longship, { uri: 'viking://resources/pkg' }, { maxPackBytes: 2500 }),
      'INPUT_TOO_LARGE',
    );
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(3000);
  });

  it('refuse an import over maxPackBytes before import() sees it', async () => {
    const { longship, seen } = standIn(everyByte);
    const pack = btoa('x'.repeat(101));
    await expectCode(
      importPack.run(longship, { pack, parentUri: 'viking://resources' }, { maxPackBytes: 100 }),
      'INPUT_TOO_LARGE',
    );
    expect(seen.imported).toBeUndefined();
  });
});
