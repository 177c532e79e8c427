// Where the derived indexes read a snapshot they need only part of at once: BM25's, whose postings
// are read a term's list at a time, when a search first needs it. Where the store can read the
// snapshot again (a sync access handle on its file, or pieces in memory), every byte but that section
// is kept as it is read, and the section is left unwritten: a page never written costs no memory, and
// on some machines a fresh one costs several ms a MB (at 100k documents BM25's postings are ~15 MB of
// 20). The store checks the checksum of every byte as it reads, kept or not.
import type { UnreadPostingsSource } from '../lexical/lexical-index.js';
import type { SnapshotRanges, SnapshotSink } from '../store/change-log.js';

/** Where a snapshot keeps the section that can wait, from its first bytes; undefined: none, or not known. */
export type LaterSection = (
  head: Uint8Array,
  byteLength: number,
) => { start: number; end: number } | undefined;

export class LazySnapshotSink implements SnapshotSink {
  /** The snapshot: all of it, or all but the skipped section until it is read (see {@link unread}). */
  readonly bytes: Uint8Array;
  readonly #later: LaterSection | undefined;
  /** The bytes not kept as they were read. */
  #skipped: { start: number; end: number } | undefined;
  #ranges: SnapshotRanges | undefined;

  /** `later`: where the section that may wait lies; given only when the store is `ranged`. */
  constructor(byteLength: number, later: LaterSection | undefined) {
    this.bytes = new Uint8Array(byteLength);
    this.#later = later;
  }

  write(chunk: Uint8Array, offset: number): void {
    // The first chunk holds the header, which says where the section lies.
    if (offset === 0 && this.#later) this.#skipped = this.#later(chunk, this.bytes.length);
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

  /** Where the reader of the snapshot reads what this sink skipped; undefined when it kept it all. */
  unread(): UnreadPostingsSource | undefined {
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
