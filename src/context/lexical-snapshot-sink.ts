// Where the derived indexes read the BM25 snapshot into. Where the store can read it again (a sync
// access handle on its file, or pieces in memory), every section but the postings is kept as it is
// read, and the postings are left to be read a term's list at a time when a search first needs it
// (LexicalLoadOptions.postings): at 100k documents they are ~15 MB of the 20 MB, and a cold open
// that wrote them all into fresh memory spent ~0.1 s on this alone in Chromium. The store checks
// the checksum of every byte as it reads, kept or not.
import { postingsSection } from '../lexical/bm25-snapshot.js';
import type { UnreadPostingsSource } from '../lexical/lexical-index.js';
import type { SnapshotRanges, SnapshotSink } from '../store/store.js';

export class LexicalSnapshotSink implements SnapshotSink {
  /** The snapshot: all of it, or all but its postings until they are read (see {@link postings}). */
  readonly bytes: Uint8Array;
  readonly #ranged: boolean;
  /** The bytes not kept as they were read. */
  #skipped: { start: number; end: number } | undefined;
  #ranges: SnapshotRanges | undefined;

  constructor(byteLength: number, ranged: boolean) {
    this.bytes = new Uint8Array(byteLength);
    this.#ranged = ranged;
  }

  write(chunk: Uint8Array, offset: number): void {
    // The first chunk holds the header, which says where the postings lie.
    if (offset === 0 && this.#ranged) this.#skipped = postingsSection(chunk, this.bytes.length);
    const skip = this.#skipped;
    const end = offset + chunk.length;
    if (!skip || end <= skip.start || offset >= skip.end) {
      this.bytes.set(chunk, offset);
      return;
    }
    if (offset < skip.start) this.bytes.set(chunk.subarray(0, skip.start - offset), offset);
    if (end > skip.end) this.bytes.set(chunk.subarray(skip.end - offset), skip.end);
  }

  adopt(ranges: SnapshotRanges): void {
    if (this.#skipped) this.#ranges = ranges;
    else ranges.close();
  }

  /** Where the index reads the postings this sink skipped; undefined when it kept them. */
  postings(): UnreadPostingsSource | undefined {
    const ranges = this.#ranges;
    if (!ranges) return undefined;
    return { read: (into, at) => ranges.read(into, at), done: () => this.dispose() };
  }

  /** Lets the store's reader go (a sync access handle holds its file open); idempotent. */
  dispose(): void {
    this.#ranges?.close();
    this.#ranges = undefined;
  }
}
