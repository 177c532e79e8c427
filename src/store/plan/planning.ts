// What a batch removes and puts, as the planner finds them inside the writing transaction, and the
// questions about the store after the batch that every check asks (docs/internals/store.md).

import { LongshipError } from '../../errors.js';
import type {
  NodeRecord,
  NodeUse,
  PostingRecord,
  RelationKey,
  RelationRecord,
  VectorRecord,
} from '../store.js';
import type { CachedReader } from './plan-reader.js';

export interface PlannedDeletions {
  nodes: Map<string, NodeRecord>;
  vectors: Map<number, VectorRecord>;
  postings: Set<number>;
  relations: Map<string, RelationKey>;
  /** Postings the batch deletes by key (not with their node). */
  explicitPostings: Set<number>;
}

export interface PlannedPuts {
  nodes: Map<string, NodeRecord>;
  vectors: Map<number, VectorRecord>;
  postings: Map<number, PostingRecord>;
  relations: Map<string, RelationRecord>;
  /** Each put node's key → its URI, filled by {@link Planning.checkNodeKeys}. */
  nodeKeys: Map<number, string>;
}

export function refuse(message: string): LongshipError {
  return new LongshipError('INVALID_ARGUMENT', message);
}

/** A child's URI is its parent's, a '/', and a name without '/': so descendants are a prefix scan. */
export function isChildUri(uri: string, parent: string): boolean {
  return (
    uri.startsWith(`${parent}/`) && uri.length > parent.length + 1 && !uri.includes('/', parent.length + 1)
  );
}

export class Planning {
  constructor(
    readonly read: CachedReader,
    readonly gone: PlannedDeletions,
    readonly put: PlannedPuts,
  ) {}

  /** The stored node at `uri`, unless the batch deletes it. */
  async storedUnlessGone(uri: string): Promise<NodeRecord | undefined> {
    return this.gone.nodes.has(uri) ? undefined : this.read.node(uri);
  }

  async existsAfter(uri: string): Promise<boolean> {
    return this.put.nodes.has(uri) || (await this.storedUnlessGone(uri)) !== undefined;
  }

  async keyExistsAfter(key: number): Promise<boolean> {
    if (this.put.nodeKeys.has(key)) return true;
    const node = await this.read.nodeByKey(key);
    return node !== undefined && !this.gone.nodes.has(node.uri);
  }

  /** A use bumps the node as this transaction sees it: read here, never by the caller beforehand. */
  async applyUses(uses: readonly NodeUse[]): Promise<void> {
    for (const use of uses) {
      const node = this.put.nodes.get(use.uri) ?? (await this.storedUnlessGone(use.uri));
      if (node) this.put.nodes.set(use.uri, { ...node, useCount: node.useCount + 1, lastUsedAt: use.at });
    }
  }

  /** Each put node keeps its URI's key, and no key goes to two URIs. */
  async checkNodeKeys(): Promise<void> {
    const { nodes, nodeKeys } = this.put;
    for (const node of nodes.values()) {
      const other = nodeKeys.get(node.key);
      if (other !== undefined) throw refuse(`key ${node.key} is given to both ${other} and ${node.uri}`);
      nodeKeys.set(node.key, node.uri);
      const existing = await this.storedUnlessGone(node.uri);
      if (existing && existing.key !== node.key) {
        throw refuse(
          `${node.uri} has key ${existing.key}, not ${node.key}: delete it first to give it a new key`,
        );
      }
      const owner = await this.read.nodeByKey(node.key);
      if (owner && owner.uri !== node.uri && !this.gone.nodes.has(owner.uri)) {
        throw refuse(`key ${node.key} already belongs to ${owner.uri}`);
      }
    }
  }

  /** What the puts replace in place: node keys, the vectors as they were, posting keys. */
  async replaced(): Promise<{ nodes: number[]; vectors: VectorRecord[]; postings: number[] }> {
    const nodes: number[] = [];
    for (const node of this.put.nodes.values())
      if (await this.storedUnlessGone(node.uri)) nodes.push(node.key);
    const vectors: VectorRecord[] = [];
    for (const vector of this.put.vectors.values()) {
      const existing = await this.read.vector(vector.key);
      if (!existing || this.gone.vectors.has(vector.key)) continue;
      if (existing.nodeKey !== vector.nodeKey) {
        throw refuse(`vector key ${vector.key} belongs to node ${existing.nodeKey}, not ${vector.nodeKey}`);
      }
      vectors.push(existing);
    }
    const postings: number[] = [];
    for (const posting of this.put.postings.values()) {
      if (!this.gone.postings.has(posting.key) && (await this.read.hasPosting(posting.key)))
        postings.push(posting.key);
    }
    return { nodes, vectors, postings };
  }
}
