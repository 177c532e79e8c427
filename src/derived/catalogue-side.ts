// The catalogue side: every stored node without its L1/L2, for retrieval's scopes
// (node-catalogue.ts), in the format of catalogue-snapshot.ts.

import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import type { ChangeRecord, CommittedChange, NodeRecord } from '../store/store.js';
import { addedRecords, keysOf } from './change-replay.js';
import { type DerivedSide, SCAN_BATCH, type SideSnapshot, snapshotNames } from './derived-side.js';
import { catalogueProblems } from './index-checks.js';
import { NodeCatalogue } from './node-catalogue.js';

export class CatalogueSide implements DerivedSide<(NodeRecord | undefined)[]> {
  readonly name = 'nodes';
  #catalogue: NodeCatalogue | undefined;

  /** The catalogue. Replaced on a rebuild: read it each time, never across an await. */
  get catalogue(): NodeCatalogue {
    if (!this.#catalogue) throw new LongshipError('DISPOSED', 'the derived indexes were closed');
    return this.#catalogue;
  }

  async load(store: FullStore): Promise<number | undefined> {
    const snapshot = await store.snapshot(snapshotNames.nodes);
    if (!snapshot) return undefined;
    const { catalogue, readBack } = NodeCatalogue.load(snapshot.bytes);
    // The few nodes whose metadata JSON could not carry come from the store as they are now.
    for (const key of readBack) {
      const node = await store.nodeByKey(key);
      if (node) catalogue.set(node);
    }
    this.#catalogue = catalogue;
    return snapshot.seq;
  }

  async rebuild(store: FullStore): Promise<void> {
    const catalogue = new NodeCatalogue();
    for await (const rows of store.scan('nodes', SCAN_BATCH)) for (const node of rows) catalogue.set(node);
    this.#catalogue = catalogue;
  }

  async read(
    store: FullStore,
    changes: readonly ChangeRecord[],
    own: CommittedChange | undefined,
  ): Promise<(NodeRecord | undefined)[]> {
    return addedRecords(changes, 'addedNodeKeys', own?.nodes, (key) => store.nodeByKey(key));
  }

  apply(changes: readonly ChangeRecord[], nodes: (NodeRecord | undefined)[]): boolean {
    const catalogue = this.catalogue;
    const touched = keysOf(changes, 'removedNodeKeys', 'addedNodeKeys');
    // Nodes still there are set over their old selves, so the catalogue sees what changed in place.
    const current = new Set<number>();
    for (const node of nodes) if (node) current.add(node.key);
    for (const key of touched) if (!current.has(key)) catalogue.delete(key);
    for (const node of nodes) if (node) catalogue.set(node);
    return touched.size > 0;
  }

  async settled(): Promise<void> {}

  serialize(): SideSnapshot[] {
    return [{ name: snapshotNames.nodes, bytes: this.catalogue.serialize() }];
  }

  problems(store: FullStore): Promise<string[]> {
    return catalogueProblems(store, this.catalogue);
  }

  dispose(): void {
    this.#catalogue = undefined;
  }
}
