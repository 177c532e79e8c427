// A scope's nodes by key. A Map of a 100k-node scope took ~45 ms to build in the first find after
// an open; a typed hash over their keys (KeyIndex) takes ~10, with nothing for the collector.
import { KeyIndex } from '../derived/key-index.js';
import type { NodeRecord } from '../store/store.js';

export class NodesByKey {
  readonly #nodes: readonly NodeRecord[];
  readonly #index: KeyIndex;
  /** Nodes replaced in place since the lookup was made (a use recorded), by key. */
  readonly #replaced: ReadonlyMap<number, NodeRecord>;

  private constructor(
    nodes: readonly NodeRecord[],
    index: KeyIndex,
    replaced: ReadonlyMap<number, NodeRecord>,
  ) {
    this.#nodes = nodes;
    this.#index = index;
    this.#replaced = replaced;
  }

  /** The lookup, and `nodes` with any key given twice kept once (its first). */
  static of(nodes: readonly NodeRecord[]): { byKey: NodesByKey; nodes: readonly NodeRecord[] } {
    const keys = new Float64Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) keys[i] = nodes[i]!.key;
    const index = new KeyIndex(keys);
    const repeated = new Set<number>();
    for (let i = 0; i < nodes.length; i++) if (index.add(i) >= 0) repeated.add(i);
    if (repeated.size === 0) return { byKey: new NodesByKey(nodes, index, new Map()), nodes };
    // Rare (roots are disjoint): index the nodes kept, so positions match.
    return NodesByKey.of(nodes.filter((_, i) => !repeated.has(i)));
  }

  get size(): number {
    return this.#nodes.length;
  }

  has(key: number): boolean {
    return this.#index.find(key) >= 0;
  }

  get(key: number): NodeRecord | undefined {
    const at = this.#index.find(key);
    return at < 0 ? undefined : (this.#replaced.get(key) ?? this.#nodes[at]);
  }

  /** This lookup with `nodes` in place of those with the same keys (others are ignored). */
  withReplaced(nodes: Iterable<NodeRecord>): NodesByKey {
    const replaced = new Map(this.#replaced);
    for (const node of nodes) if (this.has(node.key)) replaced.set(node.key, node);
    return new NodesByKey(this.#nodes, this.#index, replaced);
  }
}
