// verify() for the tree's shape: every node lies in a context root (or is a root or its parent), with
// that root's context type. commit() is below the tree and does not know the roots; write(), mkdir()
// and ingestion keep to them, so a node elsewhere means a bug or outside damage.

import type { Store } from '../store/store.js';
import { storedTypeOf } from './namespace.js';
import { isVikingUri } from './uri.js';

const SCAN_BATCH = 1024;

/**
 * The stored nodes that lie outside the roots, or whose context type is not their root's.
 *
 * @example
 * const problems = await placeProblems(store); // ['node viking://evil/x.md is outside the roots']
 */
export async function placeProblems(store: Store): Promise<string[]> {
  const problems: string[] = [];
  for await (const rows of store.scan('nodes', SCAN_BATCH)) {
    for (const node of rows) {
      const expected = isVikingUri(node.uri) ? storedTypeOf(node.uri) : undefined;
      if (expected === undefined) problems.push(`node ${node.uri} is outside the roots`);
      else if (node.contextType !== expected) {
        problems.push(`node ${node.uri} is a ${node.contextType}, in the ${expected} root`);
      }
    }
  }
  return problems;
}
