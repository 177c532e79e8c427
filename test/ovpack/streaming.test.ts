// The pack streams (docs/guide/ovpack.md): export produces its first bytes having read only the first
// nodes, and reads on only as the stream is read; import reads a Blob a piece at a time.
import { describe, expect, it } from 'vitest';
import { exportPack } from '../../src/ovpack/export-pack.js';
import type { FullStore } from '../../src/store/full-store.js';
import { exported, open } from './fixtures.js';

const P = 'viking://resources/log';

describe('an OVPack streams', () => {
  it('export reads the nodes as the stream is read, not before', async () => {
    const longship = await open();
    for (let i = 0; i < 300; i++) {
      await longship.write(
        `${P}/day-${Math.floor(i / 50)}/entry-${i}.md`,
        `Entry ${i}: wind ${i % 30} knots.`,
        {
          parents: true,
        },
      );
    }
    let reads = 0;
    const store = new Proxy(longship.store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'node' || typeof value !== 'function') return value;
        return (uri: string) => {
          reads++;
          return value.call(target, uri);
        };
      },
    }) as FullStore;
    const stream = await exportPack({ store, embedder: longship.embedder }, P, { includeVectors: true });
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    expect(reads).toBeLessThan(10);
    let bytes = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;
    expect(reads).toBeGreaterThan(300);
    expect(bytes).toBeGreaterThan(0);
  });

  it('import reads a Blob in slices, never whole', async () => {
    const source = await open();
    // Words that hardly repeat, so that the pack deflates little.
    const text = (i: number) =>
      Array.from({ length: 3000 }, (_, w) => ((i * 7919 + w * 104729) % 1000003).toString(36));
    for (let i = 0; i < 40; i++)
      await source.write(`${P}/entry-${i}.md`, text(i).join(' '), { parents: true });
    const bytes = await exported(source, P);
    expect(bytes.length).toBeGreaterThan(300 * 1024);
    const blob = new Blob([bytes as BlobPart]);
    const sizes: number[] = [];
    const slice = blob.slice.bind(blob);
    blob.slice = (start?: number, end?: number) => {
      const part = slice(start, end);
      sizes.push(part.size);
      return part;
    };
    let wholeReads = 0;
    blob.arrayBuffer = async () => {
      wholeReads++;
      return new ArrayBuffer(0);
    };
    const target = await open();
    expect((await target.import(blob, 'viking://resources')).nodes).toBe(41);
    expect(wholeReads).toBe(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(256 * 1024);
    // Twice through: once to check, once to write.
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(2 * bytes.length);
  });
});

describe('an export whose directory changes while it streams', () => {
  it('fails with STORE_ERROR rather than pack records that disagree with the files', async () => {
    const longship = await open();
    for (let i = 0; i < 20; i++) await longship.write(`${P}/entry-${i}.md`, `Entry ${i}.`, { parents: true });
    const reader = (await longship.export(P)).getReader();
    // Past the first file: each node's entry comes out in a few pieces.
    for (let i = 0; i < 12; i++) await reader.read();
    await longship.write(`${P}/entry-0.md`, 'Rewritten while the pack was written.');
    let error: unknown;
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read());
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'STORE_ERROR' });
  });
});
